import { addDays, type CheckinReason, type CheckinSyncResult, zonedNow } from '@qless/contract';
import { localTime, todayOf } from '../../core/local-time.js';
import type { Db } from '../../db/schema.js';
import { markCheckedIn, moveCheckInEarlier } from '../bookings/bookings.module.js';
import type { TurnMessages } from '../queue/queue.module.js';
import {
  enterBookingVisit,
  inTransaction,
  moveBookingVisitArrival,
} from '../queue/queue.module.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import {
  type CounterBooking,
  findCounterBooking,
  resolveTicket,
  stateReason,
} from '../tickets/tickets.module.js';
import { isForeignCode } from './checkin.service.js';

export interface SyncItem {
  token?: string | undefined;
  code?: string | undefined;
  scanned_at: string;
  client_id: string;
}

/**
 * When an offline scan counts as made. The device's clock is believed within the booking's
 * day, never before the booking was confirmed (no ticket existed yet) and never past the
 * server's now; a scan the device dates outside those bounds is taken as made when it
 * reached us if that is still the booking's day, and refused otherwise. Only today's and
 * yesterday's bookings may be synced (a counter offline over midnight); null: NOT_TODAY.
 */
export function effectiveScanTime(
  booking: CounterBooking,
  scannedAt: Date,
  now: Date,
): Date | null {
  const today = todayOf(booking, now);
  const day = booking.booking_date;
  if (day > today || day < addDays(today, -1)) return null;
  const floor = booking.confirmed_at?.getTime() ?? Number.NEGATIVE_INFINITY;
  const believable = (t: Date) =>
    zonedNow(booking.time_zone, t).date === day && t.getTime() >= floor;
  const claimed = scannedAt.getTime() > now.getTime() ? now : scannedAt;
  if (believable(claimed)) return claimed;
  return day === today && believable(now) ? now : null;
}

function result(
  item: SyncItem,
  outcome: CheckinSyncResult['result'],
  reason: CheckinReason,
  booking: CounterBooking | null,
  replaced: Date | null = null,
  conflicting: Date | null = null,
): CheckinSyncResult {
  const at = booking?.checked_in_at ?? null;
  return {
    client_id: item.client_id,
    result: outcome,
    reason,
    booking_id: booking?.booking_id ?? null,
    ticket_code: booking?.ticket_code ?? null,
    cus_name: booking?.cus_name ?? null,
    date: booking?.booking_date ?? null,
    checked_in_at: at ? at.toISOString() : null,
    checked_in_time: at && booking ? localTime(at, booking.time_zone) : null,
    replaced_scan_at: replaced ? replaced.toISOString() : null,
    conflicting_scan_at: conflicting ? conflicting.toISOString() : null,
  };
}

async function syncOne(
  db: Db,
  signer: TicketSigner,
  item: SyncItem,
  scope: { organizationId: string; userId: string },
  now: Date,
  turns: TurnMessages | null,
): Promise<CheckinSyncResult> {
  const input = item.token !== undefined ? { token: item.token } : { code: item.code ?? '' };
  const resolved = await resolveTicket(db, signer, input, now);
  if (!resolved.found) return result(item, 'refused', resolved.reason, null);
  let booking = resolved.booking;
  if (isForeignCode(input, booking, scope.organizationId)) {
    return result(item, 'refused', 'UNKNOWN_TICKET', null);
  }
  if (booking.organization_id !== scope.organizationId) {
    return result(item, 'refused', 'WRONG_ORGANIZATION', null);
  }
  // The same scan sent again (a retry after a lost answer) answers as the first time.
  if (booking.status === 'checked_in' && booking.checked_in_client_id === item.client_id) {
    return result(item, 'checked_in', 'OK', booking);
  }
  const at = effectiveScanTime(booking, new Date(item.scanned_at), now);
  if (!at) return result(item, 'refused', 'NOT_TODAY', booking);
  const change = { bookingId: booking.booking_id, at, clientId: item.client_id };
  if (booking.status === 'confirmed') {
    // Checked in means in line: the visit enters in the check-in's transaction.
    const won = await inTransaction(db, async (trx) => {
      const changed = await markCheckedIn(
        trx,
        {
          ...change,
          by: scope.userId,
          organizationId: scope.organizationId,
          date: booking.booking_date,
        },
        now,
      );
      if (changed) await enterBookingVisit(trx, booking.booking_id, at, now, turns);
      return changed;
    });
    booking = (await findCounterBooking(db, booking.booking_id)) ?? booking;
    if (won) return result(item, 'checked_in', 'OK', booking);
  }
  if (booking.status === 'checked_in') {
    const recorded = booking.checked_in_at;
    const moved = await inTransaction(db, async (trx) => {
      const earlier = await moveCheckInEarlier(trx, change, now);
      if (earlier) await moveBookingVisitArrival(trx, booking.booking_id, at, now);
      return earlier;
    });
    if (moved) {
      booking = (await findCounterBooking(db, booking.booking_id)) ?? booking;
      return result(item, 'checked_in', 'OK', booking, recorded);
    }
    // An earlier scan than a check-in made online does not rewrite it: it is told back.
    const conflicting = recorded && at.getTime() < recorded.getTime() ? at : null;
    return result(item, 'already_checked_in', 'ALREADY_CHECKED_IN', booking, null, conflicting);
  }
  return result(item, 'refused', stateReason(booking.status), booking);
}

/**
 * Check-ins a counter made offline. Taken in the order they were scanned, so of two scans
 * of one ticket in a batch the earlier is the check-in; answered in the order sent.
 */
export async function syncCheckins(
  db: Db,
  signer: TicketSigner,
  items: SyncItem[],
  scope: { organizationId: string; userId: string },
  now: Date,
  turns: TurnMessages | null = null,
): Promise<CheckinSyncResult[]> {
  const order = items
    .map((item, index) => ({ item, index, at: new Date(item.scanned_at).getTime() }))
    .sort((a, b) => a.at - b.at || a.index - b.index);
  const results: CheckinSyncResult[] = new Array(items.length);
  for (const { item, index } of order) {
    results[index] = await syncOne(db, signer, item, scope, now, turns);
  }
  return results;
}
