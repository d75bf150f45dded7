/**
 * The waitlist's zod-free values (decision 023), for the browser's first chunk as for the
 * server: an entry's states and the bounds of an organization's offer hold.
 */
export const WAITLIST_STATES = [
  'waiting',
  'offered',
  'booked',
  'lapsed',
  'missed',
  'expired',
  'withdrawn',
] as const;
export type WaitlistStateName = (typeof WAITLIST_STATES)[number];

/** Bounds of an organization's offer hold (minutes). */
export const WAITLIST_HOLD_MINUTES = { min: 5, max: 120, default: 15 } as const;
