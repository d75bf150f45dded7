import { addDays, type BookingStatus, type VisitState } from '@qless/contract';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { QueueClosingSweep } from '../../src/modules/queue/queue-closing.js';
import { generateTicketCode } from '../../src/modules/tickets/ticket-code.js';
import { useStack } from '../support/app-fixture.js';
import { bearer, createUser, signIn } from '../support/auth-helpers.js';
import { recordingLog } from '../support/recording-log.js';

/**
 * No-shows past the late grace and the end of the day (issue 19 item 7, decision 020), on the
 * pinned clock. The fixture organization is in Douala (UTC+1), open 07:00–18:00, one slot
 * every 15 minutes from 07:00; the visits are written directly (the entry paths are tested
 * in the queue's own files).
 */
const TODAY = '2026-03-04';
const SLOT_0900 = 8;
const SLOT_0930 = 10;

/** A stack whose sweeps the test makes, with booking helpers (both describes below). */
function closingStack() {
  // The app's own sweep stays out of the way: every sweep here is made by the test.
  const h = useStack({ env: { QUEUE_SWEEP_INTERVAL_MS: '3600000' } });
  const at = (hhmm: string, date = TODAY) => h.clock.set(`${date}T${hhmm}:00+01:00`);
  const sweeper = () =>
    new QueueClosingSweep({
      db: h.database.db,
      clock: h.clock,
      intervalMs: 3_600_000,
      log: recordingLog().log,
    });

  let n = 0;
  const book = async (date: string, slot: number, status: BookingStatus = 'confirmed') => {
    n += 1;
    const row = await h.database.db
      .insertInto('bookings')
      .values({
        organization_id: h.fx.orgId,
        service_id: h.fx.serviceId,
        slot_id: h.fx.slotIds[slot] ?? '',
        booking_date: date,
        seat: n,
        status,
        cus_name: `Customer ${n}`,
        cus_email: `customer${n}@example.cm`,
        phone_number: `+2376770${String(n).padStart(5, '0')}`,
        ticket_code: `CLOSE${String(n).padStart(3, '0')}`,
        confirmed_at: new Date(`${addDays(date, -1)}T12:00:00+01:00`),
        checked_in_at: status === 'checked_in' ? new Date(`${date}T08:50:00+01:00`) : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const bookingOf = (id: string) =>
    h.database.db
      .selectFrom('bookings')
      .select(['status', 'no_show_by', 'status_changed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  return { h, at, sweeper, book, bookingOf };
}

describe('the queue closing sweep', () => {
  const { h, at, sweeper, book, bookingOf } = closingStack();

  it('marks a confirmed booking not checked in by slot start + late grace a no-show, by the system, once', async () => {
    await h.database.db
      .updateTable('organizations')
      .set({ queue_grace_late_minutes: 20 })
      .where('id', '=', h.fx.orgId)
      .execute();
    const missed = await book(TODAY, SLOT_0900);
    const later = await book(TODAY, SLOT_0930);
    const checkedIn = await book(TODAY, SLOT_0900, 'checked_in');
    const cancelled = await book(TODAY, SLOT_0900, 'cancelled');
    const yesterday = await book(addDays(TODAY, -1), SLOT_0900);
    // From before the queue existed: its status is history, not the sweep's to rewrite.
    const lastWeek = await book(addDays(TODAY, -7), SLOT_0900);

    at('09:19');
    expect(await sweeper().sweep()).toEqual({ noShows: 1, left: 0 });
    expect((await bookingOf(yesterday)).status).toBe('no_show');
    expect((await bookingOf(missed)).status).toBe('confirmed');

    at('09:20');
    // Two processes sweeping at the same moment mark it once.
    const [a, b] = await Promise.all([sweeper().sweep(), sweeper().sweep()]);
    expect(a.noShows + b.noShows).toBe(1);
    expect(await bookingOf(missed)).toEqual({
      status: 'no_show',
      no_show_by: 'system',
      status_changed_at: new Date('2026-03-04T08:20:00Z'),
    });
    expect((await bookingOf(later)).status).toBe('confirmed');
    expect((await bookingOf(checkedIn)).status).toBe('checked_in');
    expect((await bookingOf(cancelled)).status).toBe('cancelled');
    expect((await bookingOf(lastWeek)).status).toBe('confirmed');

    at('09:50');
    expect((await sweeper().sweep()).noShows).toBe(1);
    expect((await bookingOf(later)).status).toBe('no_show');
    expect((await sweeper().sweep()).noShows).toBe(0);
  });

  it('closes every open visit as left at closing time, with its event, and tells the queue', async () => {
    const db = h.database.db;
    const counters = await db
      .insertInto('counters')
      .values([
        { organization_id: h.fx.orgId, name: 'Guichet 1', state: 'open' },
        { organization_id: h.fx.orgId, name: 'Guichet 2', state: 'open' },
      ])
      .returning('id')
      .execute();
    let number = 0;
    const visit = async (state: VisitState, date = TODAY, counter: string | null = null) => {
      number += 1;
      const arrived = new Date(`${date}T10:00:00+01:00`);
      const row = await db
        .insertInto('visits')
        .values({
          organization_id: h.fx.orgId,
          service_id: h.fx.serviceId,
          visit_date: date,
          letter: 'A',
          number,
          source: 'staff',
          arrived_at: arrived,
          queued_at: arrived,
          state,
          counter_id: counter,
          called_at: counter ? arrived : null,
          serving_at: state === 'serving' ? arrived : null,
          ended_at: state === 'done' ? arrived : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const waiting = await visit('waiting');
    const called = await visit('called', TODAY, counters[0]?.id ?? null);
    const serving = await visit('serving', TODAY, counters[1]?.id ?? null);
    const done = await visit('done');
    const leftOpenYesterday = await visit('waiting', addDays(TODAY, -1));
    const stateOf = async (id: string) =>
      await db
        .selectFrom('visits')
        .select(['state', 'ended_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    // Told through the queue's channel (PostgreSQL's NOTIFY; PGlite has one process).
    const listener = h.url ? new pg.Client({ connectionString: h.url }) : null;
    const heard: string[] = [];
    if (listener) {
      await listener.connect();
      listener.on('notification', (msg) => heard.push(msg.payload ?? ''));
      await listener.query('listen queue_changes');
    }
    try {
      // Before closing: only the visit a server down at last night's closing left open.
      at('17:59');
      expect((await sweeper().sweep()).left).toBe(1);
      expect(await stateOf(leftOpenYesterday)).toEqual({
        state: 'left',
        ended_at: new Date('2026-03-04T16:59:00Z'),
      });
      expect((await stateOf(waiting)).state).toBe('waiting');

      at('18:00');
      const [a, b] = await Promise.all([sweeper().sweep(), sweeper().sweep()]);
      expect(a.left + b.left).toBe(3);
      for (const id of [waiting, called, serving]) {
        expect(await stateOf(id)).toEqual({
          state: 'left',
          ended_at: new Date('2026-03-04T17:00:00Z'),
        });
      }
      expect((await stateOf(done)).state).toBe('done');
      expect((await sweeper().sweep()).left).toBe(0);

      const events = await db
        .selectFrom('visit_events')
        .select(['visit_id', 'kind', 'from_state', 'to_state', 'counter_id', 'by_user', 'at'])
        .where('organization_id', '=', h.fx.orgId)
        .orderBy('id')
        .execute();
      const closing = (id: string) => events.filter((e) => e.visit_id === id);
      expect(closing(called)).toEqual([
        {
          visit_id: called,
          kind: 'closed_at_end_of_day',
          from_state: 'called',
          to_state: 'left',
          counter_id: counters[0]?.id,
          by_user: null,
          at: new Date('2026-03-04T17:00:00Z'),
        },
      ]);
      expect(closing(serving).map((e) => e.from_state)).toEqual(['serving']);
      expect(closing(waiting).map((e) => e.from_state)).toEqual(['waiting']);
      expect(closing(done)).toEqual([]);
      // Nothing deleted: the day's five visits are all there.
      const count = await db
        .selectFrom('visits')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('organization_id', '=', h.fx.orgId)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(5);
      // A counter is free again for the next day (it holds no called or serving visit).
      await db
        .insertInto('visits')
        .values({
          organization_id: h.fx.orgId,
          service_id: h.fx.serviceId,
          visit_date: addDays(TODAY, 1),
          letter: 'A',
          number: 1,
          source: 'staff',
          arrived_at: new Date(),
          queued_at: new Date(),
          state: 'called',
          counter_id: counters[0]?.id ?? null,
        })
        .execute();

      if (listener) {
        await expect.poll(() => heard.length).toBeGreaterThanOrEqual(1);
        expect(new Set(heard)).toEqual(new Set([h.fx.orgId]));
      }
    } finally {
      await listener?.end();
    }
  });
});

describe('a late customer after the sweep', () => {
  const { h, at, sweeper, book, bookingOf } = closingStack();

  it('checks in a late customer the sweep marked missed, who waits as a walk-in from arrival; a counter no-show stays refused', async () => {
    const late = await book(TODAY, SLOT_0900);
    const missedAtCounter = await book(TODAY, SLOT_0900, 'no_show');
    at('09:40');
    await sweeper().sweep();
    expect((await bookingOf(late)).status).toBe('no_show');
    const staff = await createUser(h.database.db, {
      email: 'late-staff@closing.cm',
      role: 'staff',
      organizationId: h.fx.orgId,
    });
    const headers = bearer(await signIn(h.app, staff.email));
    // A code the counter can type (the fixture's rows carry short placeholders).
    const codeOf = async (id: string) => {
      const code = generateTicketCode();
      await h.database.db
        .updateTable('bookings')
        .set({ ticket_code: code })
        .where('id', '=', id)
        .execute();
      return code;
    };

    at('09:45');
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/organization/checkins',
      headers,
      payload: { code: await codeOf(late) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await bookingOf(late)).status).toBe('checked_in');
    const visit = await h.database.db
      .selectFrom('visits')
      .select(['state', 'arrived_at'])
      .where('booking_id', '=', late)
      .executeTakeFirstOrThrow();
    expect(visit).toEqual({ state: 'waiting', arrived_at: new Date(`${TODAY}T09:45:00+01:00`) });

    const refused = await h.app.inject({
      method: 'POST',
      url: '/api/v1/organization/checkins',
      headers,
      payload: { code: await codeOf(missedAtCounter) },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'BOOKING_NO_SHOW' });
  });
});

describe('the app runs the queue sweep by itself', () => {
  const h = useStack({ env: { QUEUE_SWEEP_ENABLED: 'true', QUEUE_SWEEP_INTERVAL_MS: '200' } });

  it('marks a missed booking a no-show without anyone asking', async () => {
    await h.app.ready();
    h.clock.set('2026-03-04T09:30:00+01:00');
    const row = await h.database.db
      .insertInto('bookings')
      .values({
        organization_id: h.fx.orgId,
        service_id: h.fx.serviceId,
        slot_id: h.fx.slotIds[SLOT_0900] ?? '',
        booking_date: TODAY,
        seat: 1,
        status: 'confirmed',
        cus_name: 'Customer',
        cus_email: 'customer@example.cm',
        phone_number: '+237677000001',
        ticket_code: 'CLOSE999',
        confirmed_at: new Date('2026-03-03T12:00:00+01:00'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect
      .poll(
        async () =>
          (
            await h.database.db
              .selectFrom('bookings')
              .select('status')
              .where('id', '=', row.id)
              .executeTakeFirstOrThrow()
          ).status,
        { timeout: 5000 },
      )
      .toBe('no_show');
  });
});
