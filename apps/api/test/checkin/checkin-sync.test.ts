// engines: postgres and pglite — offline scans replayed in order, under the row locks
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TODAY, TOMORROW, useCounterApp, YESTERDAY } from '../support/checkin-helpers.js';

describe('offline check-ins sent later', () => {
  const h = useCounterApp();
  const { ctx } = h;
  const at = (hhmm: string, date = TODAY) => h.clock.set(`${date}T${hhmm}:00+01:00`);
  const local = (hhmm: string, date = TODAY) => `${date}T${hhmm}:00+01:00`;
  const sync = (headers: Record<string, string> | null, items: unknown[], extra = {}) =>
    h.app.inject({
      method: 'POST',
      url: '/api/v1/organization/checkins/sync',
      payload: { items, ...extra },
      ...(headers ? { headers } : {}),
    });

  it('needs a counter session', async () => {
    const res = await sync(null, [
      { code: 'QL-2222-3333-4444', scanned_at: local('09:00'), client_id: randomUUID() },
    ]);
    expect(res.statusCode).toBe(401);
  });

  it('checks each in at its scan time, answers in the order sent, and refuses what it must', async () => {
    at('10:30');
    const plain = await h.book(ctx.a, { name: 'Offline One' });
    const byCode = await h.book(ctx.a, { name: 'Offline Two' });
    const theirs = await h.book(ctx.b, { name: 'Of Another Org' });
    const tomorrow = await h.book(ctx.a, { date: TOMORROW });
    const cancelled = await h.book(ctx.a, { status: 'cancelled' });
    const future = await h.book(ctx.a);
    const items = [
      { token: await h.token(plain), scanned_at: local('09:50'), client_id: randomUUID() },
      { code: byCode.code.toLowerCase(), scanned_at: local('09:52'), client_id: randomUUID() },
      { token: await h.token(theirs), scanned_at: local('09:53'), client_id: randomUUID() },
      { token: await h.token(tomorrow), scanned_at: local('09:54'), client_id: randomUUID() },
      { code: cancelled.code, scanned_at: local('09:55'), client_id: randomUUID() },
      // The device's clock runs an hour ahead: never a time in the future.
      { code: future.code, scanned_at: local('11:30'), client_id: randomUUID() },
      { token: 'not.a.token', scanned_at: local('09:56'), client_id: randomUUID() },
      // A typed code of another organization is answered as one that does not exist.
      { code: theirs.code, scanned_at: local('09:57'), client_id: randomUUID() },
      { code: 'QL-2222-3333-4444', scanned_at: local('09:58'), client_id: randomUUID() },
    ];
    const res = await sync(ctx.staffA.headers, items);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { results } = res.json();
    expect(results.map((r: { client_id: string }) => r.client_id)).toEqual(
      items.map((i) => i.client_id),
    );
    expect(
      results.map((r: { result: string; reason: string }) => `${r.result}:${r.reason}`),
    ).toEqual([
      'checked_in:OK',
      'checked_in:OK',
      'refused:WRONG_ORGANIZATION',
      'refused:NOT_TODAY',
      'refused:BOOKING_CANCELLED',
      'checked_in:OK',
      'refused:INVALID_SIGNATURE',
      'refused:UNKNOWN_TICKET',
      'refused:UNKNOWN_TICKET',
    ]);
    const { client_id: _a, ...foreign } = results[7];
    const { client_id: _b, ...unknown } = results[8];
    expect(foreign).toEqual(unknown);
    expect(results[0]).toMatchObject({
      checked_in_time: '09:50',
      cus_name: 'Offline One',
      booking_id: plain.id,
    });
    expect(results[1]).toMatchObject({ checked_in_time: '09:52', ticket_code: byCode.code });
    expect(results[2]).toMatchObject({ booking_id: null, cus_name: null, date: null });
    expect(res.body).not.toContain('Of Another Org');
    expect(results[3]).toMatchObject({ date: TOMORROW });
    expect(results[5]).toMatchObject({ checked_in_time: '10:30' });
    const row = await h.db
      .selectFrom('bookings')
      .select(['status', 'checked_in_at', 'checked_in_by', 'checked_in_client_id'])
      .where('id', '=', plain.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'checked_in',
      checked_in_at: new Date('2026-03-04T08:50:00Z'),
      checked_in_by: ctx.staffA.id,
      checked_in_client_id: items[0]?.client_id,
    });
  });

  it('is idempotent: the same scans sent again (and twice in one batch) answer as the first time', async () => {
    at('10:30');
    const b = await h.book(ctx.a);
    const scan = { code: b.code, scanned_at: local('09:40'), client_id: randomUUID() };
    const first = (await sync(ctx.staffA.headers, [scan, scan])).json().results;
    expect(first.map((r: { result: string }) => r.result)).toEqual(['checked_in', 'checked_in']);
    at('11:00');
    const again = (await sync(ctx.staffA.headers, [scan])).json().results;
    expect(again).toEqual([first[0]]);
  });

  it('keeps the earliest offline scan: an offline 09:50 synced after an offline 09:55 wins, says what it replaced, and keeps who checked in first', async () => {
    at('10:00');
    const b = await h.book(ctx.a);
    const [first] = (
      await sync(ctx.staffA.headers, [
        { code: b.code, scanned_at: local('09:55'), client_id: randomUUID() },
      ])
    ).json().results;
    expect(first).toMatchObject({ result: 'checked_in', checked_in_time: '09:55' });
    at('10:10');
    const [earlier] = (
      await sync(ctx.adminA.headers, [
        { code: b.code, scanned_at: local('09:50'), client_id: randomUUID() },
      ])
    ).json().results;
    expect(earlier).toMatchObject({
      result: 'checked_in',
      checked_in_time: '09:50',
      replaced_scan_at: '2026-03-04T08:55:00.000Z',
      conflicting_scan_at: null,
    });
    const moved = await h.db
      .selectFrom('bookings')
      .select(['checked_in_at', 'checked_in_by'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(moved).toEqual({
      checked_in_at: new Date('2026-03-04T08:50:00Z'),
      checked_in_by: ctx.staffA.id,
    });
    // A later offline scan of the same ticket is a conflict: already checked in at 09:50.
    const [later] = (
      await sync(ctx.staffB.headers, [
        { code: b.code, scanned_at: local('10:00'), client_id: randomUUID() },
      ])
    ).json().results;
    expect(later).toMatchObject({ result: 'refused', reason: 'UNKNOWN_TICKET' });
    const [conflict] = (
      await sync(ctx.staffA.headers, [
        { code: b.code, scanned_at: local('10:00'), client_id: randomUUID() },
      ])
    ).json().results;
    expect(conflict).toMatchObject({
      result: 'already_checked_in',
      reason: 'ALREADY_CHECKED_IN',
      checked_in_time: '09:50',
      replaced_scan_at: null,
    });
    // Two offline scans of one ticket in one batch, later one listed first: the earlier wins.
    const twice = await h.book(ctx.a);
    const results = (
      await sync(ctx.staffA.headers, [
        { code: twice.code, scanned_at: local('10:05'), client_id: randomUUID() },
        { code: twice.code, scanned_at: local('10:01'), client_id: randomUUID() },
      ])
    ).json().results;
    expect(
      results.map(
        (r: { result: string; checked_in_time: string }) => `${r.result} ${r.checked_in_time}`,
      ),
    ).toEqual(['already_checked_in 10:01', 'checked_in 10:01']);
  });

  it('never rewrites a check-in made online: an earlier offline scan is told back as a conflict', async () => {
    at('10:30');
    const b = await h.book(ctx.a);
    expect((await h.checkIn(ctx.adminA.headers, { code: b.code })).statusCode).toBe(200);
    const before = await h.db
      .selectFrom('bookings')
      .select(['status', 'checked_in_at', 'checked_in_by', 'checked_in_client_id'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(before).toMatchObject({ checked_in_by: ctx.adminA.id, checked_in_client_id: null });
    at('10:40');
    const [answer] = (
      await sync(ctx.staffA.headers, [
        { code: b.code, scanned_at: local('00:01'), client_id: randomUUID() },
      ])
    ).json().results;
    expect(answer).toMatchObject({
      result: 'already_checked_in',
      reason: 'ALREADY_CHECKED_IN',
      checked_in_time: '10:30',
      replaced_scan_at: null,
      conflicting_scan_at: '2026-03-03T23:01:00.000Z',
    });
    const after = await h.db
      .selectFrom('bookings')
      .select(['status', 'checked_in_at', 'checked_in_by', 'checked_in_client_id'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it('never dates a scan before the booking was confirmed; yesterday’s booking only by a scan of yesterday after its confirmation', async () => {
    at('10:30');
    const paidLate = await h.book(ctx.a, { confirmedAt: local('10:00') });
    const [early] = (
      await sync(ctx.staffA.headers, [
        { code: paidLate.code, scanned_at: local('09:50'), client_id: randomUUID() },
      ])
    ).json().results;
    // No ticket existed at 09:50: the device's clock is wrong, taken as made on arrival.
    expect(early).toMatchObject({
      result: 'checked_in',
      checked_in_at: '2026-03-04T09:30:00.000Z',
    });

    const confirmedAt = local('17:00', YESTERDAY);
    const beforePaid = await h.book(ctx.a, { date: YESTERDAY, confirmedAt });
    const tooLate = await h.book(ctx.a, { date: YESTERDAY, confirmedAt });
    const fine = await h.book(ctx.a, { date: YESTERDAY, confirmedAt });
    const results = (
      await sync(ctx.staffA.headers, [
        { code: beforePaid.code, scanned_at: local('16:50', YESTERDAY), client_id: randomUUID() },
        { code: tooLate.code, scanned_at: local('00:05'), client_id: randomUUID() },
        { code: fine.code, scanned_at: local('17:10', YESTERDAY), client_id: randomUUID() },
      ])
    ).json().results;
    expect(
      results.map((r: { result: string; reason: string }) => `${r.result}:${r.reason}`),
    ).toEqual(['refused:NOT_TODAY', 'refused:NOT_TODAY', 'checked_in:OK']);
    expect(results[2]).toMatchObject({ checked_in_at: '2026-03-03T16:10:00.000Z' });
    const statuses = await h.db
      .selectFrom('bookings')
      .select(['id', 'status'])
      .where('id', 'in', [beforePaid.id, tooLate.id])
      .execute();
    expect(statuses.map((r) => r.status)).toEqual(['confirmed', 'confirmed']);
  });

  it('never dates a scan before the booking’s day; takes yesterday’s bookings after midnight, no older', async () => {
    at('09:00');
    const b = await h.book(ctx.a);
    // The device's clock is a day behind: taken as made when it reached us.
    const [behind] = (
      await sync(ctx.staffA.headers, [
        { code: b.code, scanned_at: local('08:58', YESTERDAY), client_id: randomUUID() },
      ])
    ).json().results;
    expect(behind).toMatchObject({
      result: 'checked_in',
      checked_in_at: '2026-03-04T08:00:00.000Z',
    });

    const lastNight = await h.book(ctx.a, { date: YESTERDAY });
    const older = await h.book(ctx.a, { date: '2026-03-02' });
    const results = (
      await sync(ctx.staffA.headers, [
        { code: lastNight.code, scanned_at: local('17:40', YESTERDAY), client_id: randomUUID() },
        { code: older.code, scanned_at: local('17:40', '2026-03-02'), client_id: randomUUID() },
      ])
    ).json().results;
    expect(results[0]).toMatchObject({
      result: 'checked_in',
      checked_in_at: '2026-03-03T16:40:00.000Z',
    });
    expect(results[1]).toMatchObject({
      result: 'refused',
      reason: 'NOT_TODAY',
      date: '2026-03-02',
    });
  });

  it('refuses a malformed batch whole: no items, too many, a bad instant or id', async () => {
    const item = { code: 'QL-2222-3333-4444', scanned_at: local('09:00'), client_id: randomUUID() };
    for (const items of [
      [],
      Array.from({ length: 201 }, () => item),
      [{ ...item, scanned_at: 'yesterday' }],
      [{ ...item, client_id: 'abc' }],
      [{ scanned_at: item.scanned_at, client_id: item.client_id }],
    ]) {
      const res = await sync(ctx.staffA.headers, items);
      expect(res.statusCode).toBe(400);
    }
  });
});
