import type { PriorityCategory, QueueSettings } from '@qless/contract';
import type { MessageKey } from '../../../i18n/en';

/** The contract's categories (types only from the contract here: its zod stays off this chunk). */
export const PRIORITY_CATEGORY_LIST = [
  'elderly',
  'pregnant',
  'disability',
  'emergency',
  'premium',
] as const satisfies readonly PriorityCategory[];

export const CATEGORY_KEY: Record<PriorityCategory, MessageKey> = {
  elderly: 'queue.priority.elderly',
  pregnant: 'queue.priority.pregnant',
  disability: 'queue.priority.disability',
  emergency: 'queue.priority.emergency',
  premium: 'queue.priority.premium',
};

export type FairOrder = Pick<
  QueueSettings,
  'priority_categories' | 'premium_label' | 'ratio' | 'ageing_ceiling_minutes'
>;

/** A whole number within bounds, null for an empty field, undefined when not valid. */
function wholeNumber(raw: FormDataEntryValue | null, min: number, max: number) {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text === '') return null;
  const value = Number(text);
  return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

/**
 * The fair order's form (decision 138), or null when a field is out of its bounds: the ratio's
 * two numbers both given (1–5 priority, 0–10 others) or both empty (no ratio), the ceiling
 * 10–240 minutes or empty (none), the premium clients' name 40 characters at most.
 */
export function parseFairOrder(data: FormData): FairOrder | null {
  const categories = PRIORITY_CATEGORY_LIST.filter((c) => data.get(`category_${c}`) === 'on');
  const priority = wholeNumber(data.get('ratio_priority'), 1, 5);
  const others = wholeNumber(data.get('ratio_others'), 0, 10);
  const ceiling = wholeNumber(data.get('ageing_ceiling_minutes'), 10, 240);
  const rawLabel = data.get('premium_label');
  const label = typeof rawLabel === 'string' ? rawLabel.trim() : '';
  if (priority === undefined || others === undefined || ceiling === undefined) return null;
  if ((priority === null) !== (others === null) || label.length > 40) return null;
  return {
    priority_categories: categories,
    premium_label: label === '' ? null : label,
    ratio: priority !== null && others !== null ? { priority, others } : null,
    ageing_ceiling_minutes: ceiling,
  };
}
