import type { CheckinBooking, CheckinRefusalReason } from '@qless/contract';

/** What one scan or typed code came to, as the screen says it. */
export type Outcome =
  | {
      kind: 'checked_in';
      booking: CheckinBooking | null;
      queued: boolean;
      /** The queue number to read out, and whether an open counter serves the service. */
      queue?: { number: string; open_counter: boolean } | null;
    }
  | {
      kind: 'refused';
      reason: CheckinRefusalReason;
      /** The ticket's date (NOT_TODAY). */
      date: string | null;
      /** "HH:MM" of the first check-in (ALREADY_CHECKED_IN). */
      time: string | null;
      booking: CheckinBooking | null;
    }
  | { kind: 'invalid_code' }
  | { kind: 'no_qr' }
  | { kind: 'signed_out' }
  | { kind: 'stale_list' }
  | { kind: 'no_list' }
  | { kind: 'error' };

export function refused(
  reason: CheckinRefusalReason,
  details: { date?: string | null; time?: string | null; booking?: CheckinBooking | null } = {},
): Outcome {
  return {
    kind: 'refused',
    reason,
    date: details.date ?? null,
    time: details.time ?? null,
    booking: details.booking ?? null,
  };
}

export type OutcomeKey =
  | 'checkin.result.checkedIn'
  | 'checkin.result.queued'
  | 'checkin.result.ALREADY_CHECKED_IN'
  | 'checkin.result.NOT_TODAY'
  | 'checkin.result.WRONG_ORGANIZATION'
  | 'checkin.result.UNKNOWN_TICKET'
  | 'checkin.result.INVALID_SIGNATURE'
  | 'checkin.result.BOOKING_HELD'
  | 'checkin.result.BOOKING_CANCELLED'
  | 'checkin.result.BOOKING_NO_SHOW'
  | 'checkin.result.BOOKING_EXPIRED'
  | 'checkin.result.invalidCode'
  | 'checkin.result.noQr'
  | 'checkin.result.signedOut'
  | 'checkin.result.staleList'
  | 'checkin.result.noList'
  | 'checkin.result.error';

/**
 * The message of an outcome and what fills it; `date` is a yyyy-MM-dd the caller formats
 * in the reader's language ("5 March", "5 mars").
 */
export function outcomeMessage(outcome: Outcome): {
  key: OutcomeKey;
  time?: string;
  date?: string;
  tone: 'success' | 'error' | 'info';
} {
  switch (outcome.kind) {
    case 'checked_in':
      return outcome.queued
        ? { key: 'checkin.result.queued', tone: 'success' }
        : { key: 'checkin.result.checkedIn', tone: 'success' };
    case 'refused': {
      const key = `checkin.result.${outcome.reason}` as const;
      if (outcome.reason === 'ALREADY_CHECKED_IN') {
        return { key, time: outcome.time ?? '—', tone: 'info' };
      }
      if (outcome.reason === 'NOT_TODAY' && outcome.date) {
        return { key, date: outcome.date, tone: 'error' };
      }
      return { key, tone: 'error' };
    }
    case 'invalid_code':
      return { key: 'checkin.result.invalidCode', tone: 'error' };
    case 'no_qr':
      return { key: 'checkin.result.noQr', tone: 'error' };
    case 'signed_out':
      return { key: 'checkin.result.signedOut', tone: 'error' };
    case 'stale_list':
      return { key: 'checkin.result.staleList', tone: 'error' };
    case 'no_list':
      return { key: 'checkin.result.noList', tone: 'error' };
    default:
      return { key: 'checkin.result.error', tone: 'error' };
  }
}
