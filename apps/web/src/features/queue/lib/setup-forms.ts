import type { QueueSettingsRequest, TransferPlace } from '@qless/contract';

/** The contract's choices (types only from the contract here: its zod stays off this chunk). */
export const TRANSFER_PLACES = ['arrival', 'front'] as const satisfies readonly TransferPlace[];

const LIMITS: Record<
  'grace_early_minutes' | 'grace_late_minutes' | 'notify_position' | 'max_recalls',
  [number, number]
> = {
  grace_early_minutes: [0, 240],
  grace_late_minutes: [0, 120],
  notify_position: [1, 20],
  max_recalls: [0, 5],
};

/**
 * The settings form's values, or null when one is not a whole number within its bounds. The
 * fair order's settings (decision 138) are not on this form: the server keeps them.
 */
export function parseSettings(data: FormData): QueueSettingsRequest | null {
  const numbers: Partial<Record<keyof typeof LIMITS, number>> = {};
  for (const [name, [min, max]] of Object.entries(LIMITS) as [
    keyof typeof LIMITS,
    [number, number],
  ][]) {
    const raw = data.get(name);
    const text = typeof raw === 'string' ? raw.trim() : '';
    const value = Number(text);
    if (text === '' || !Number.isInteger(value) || value < min || value > max) return null;
    numbers[name] = value;
  }
  return {
    grace_early_minutes: numbers.grace_early_minutes ?? 0,
    grace_late_minutes: numbers.grace_late_minutes ?? 0,
    notify_position: numbers.notify_position ?? 1,
    max_recalls: numbers.max_recalls ?? 0,
    join_enabled: data.get('join_enabled') === 'on',
    join_code: data.get('join_code') === 'on',
    transfer_place: transferPlace(data.get('transfer_place')),
  };
}

/** Where a transfer stands in the new line; by original arrival unless "front" was chosen. */
function transferPlace(raw: FormDataEntryValue | null): TransferPlace {
  return TRANSFER_PLACES.find((p) => p === raw) ?? 'arrival';
}

/** A counter form's name and ticked services, or what is missing. */
export function parseCounter(
  data: FormData,
):
  | { ok: true; name: string; service_ids: string[]; help_service_ids: string[] }
  | { ok: false; missing: 'name' | 'services' | 'both' } {
  const raw = data.get('name');
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name) return { ok: false, missing: 'name' };
  const ids = (field: string) =>
    data.getAll(field).filter((v): v is string => typeof v === 'string');
  const service_ids = ids('service_ids');
  if (service_ids.length === 0) return { ok: false, missing: 'services' };
  // The lines it helps once its own is empty (decision 139): never one it serves.
  const help_service_ids = ids('help_service_ids');
  if (help_service_ids.some((id) => service_ids.includes(id)))
    return { ok: false, missing: 'both' };
  return { ok: true, name: name.slice(0, 40), service_ids, help_service_ids };
}

/** The address a board opens, shown once: the token is never readable again. */
export function boardUrl(origin: string, token: string): string {
  return `${origin}/board/${encodeURIComponent(token)}`;
}

/** A kiosk's address (decision 135): opened on the touch screen at the door. */
export function kioskUrl(origin: string, token: string): string {
  return `${origin}/kiosk/${encodeURIComponent(token)}`;
}

/** The join page the poster's QR code opens. */
export function joinUrl(origin: string, organizationId: string): string {
  return `${origin}/join/${encodeURIComponent(organizationId)}`;
}
