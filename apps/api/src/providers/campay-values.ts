import type { ProviderEvent } from './provider.js';

/** Readers for the loosely typed values Campay sends (JSON bodies, query strings). */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asString(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function nonEmptyString(value: unknown): string | null {
  const s = asString(value);
  return s !== null && s.trim() !== '' ? s : null;
}

/** Campay sends amounts as numbers in status responses and as strings in callbacks. */
function asAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** The event fields that status responses and callbacks name alike; the status is mapped apart. */
export function eventFields(fields: Record<string, unknown>): Omit<ProviderEvent, 'status'> {
  return {
    providerReference: nonEmptyString(fields.reference),
    paymentId: nonEmptyString(fields.external_reference),
    amount: asAmount(fields.amount),
    currency: nonEmptyString(fields.currency),
    operator: nonEmptyString(fields.operator),
    operatorReference: nonEmptyString(fields.operator_reference),
    code: nonEmptyString(fields.code),
    endpoint: nonEmptyString(fields.endpoint),
  };
}
