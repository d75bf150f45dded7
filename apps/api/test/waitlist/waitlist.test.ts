// engines: postgres and pglite — offers under the day's lock; twenty racing one freed seat
import { addDays, waitlistJoinResponseSchema } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { syncServiceSlots } from '../../src/modules/slots/slots.repository.js';
import { listDaysToSettle } from '../../src/modules/waitlist/waitlist.repository.js';
import { gsmLength } from '../../src/providers/sms/sms-text.js';
import { signedIn } from '../support/auth-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { freshPhone, useSelfServiceApp } from '../support/self-service-helpers.js';

/**
 * The waitlist of full days (issue 20, decision 023), on both engines: joining only a full
 * day, offers of freed seats in order by one SMS each, lapses after the hold, the invariant
 * under a race for the freed seat, and the limits that keep strangers from being texted.
 * The clock is pinned at Wed 4 March 2026, 09:30 in Douala; the fixture service has one seat
 * per slot, 44 slots a day (07:00–18:00).
 */
describe('waitlist', () => {
  const s = useSelfServiceApp({
    env: { OUTBOX_WORKER_INTERVAL_MS: '3600000', REMINDER_SWEEP_INTERVAL_MS: '3600000' },
  });
  const { h } = s;
  const db = () => h.database.db;
  let addresses = 0;
  const nextAddress = () => {
    addresses += 1;
    return `10.20.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
  };

  function join(
    date: string,
    phone: string,
    options: { locale?: 'en' | 'fr'; address?: string; serviceId?: string } = {},
  ) {
    return h.app.inject({
      method: 'POST',
      url: `/api/v1/service/${options.serviceId ?? h.fx.serviceId}/waitlist`,
      payload: { date, phone, ...(options.locale ? { locale: options.locale } : {}) },
      remoteAddress: options.address ?? nextAddress(),
    });
  }

  async function joined(date: string, phone: string, locale: 'en' | 'fr' = 'en') {
    const res = await join(date, phone, { locale });
    expect(res.statusCode, res.body).toBe(201);
    return waitlistJoinResponseSchema.parse(res.json());
  }

  /** Every slot of the day taken by a confirmed booking, but those at `except`. */
  async function fill(date: string, except: number[] = []) {
    const rows = h.fx.slotIds
      .map((slot_id, i) => ({ slot_id, i }))
      .filter(({ i }) => !except.includes(i))
      .map(({ slot_id, i }) => ({
        organization_id: h.fx.orgId,
        service_id: h.fx.serviceId,
        slot_id,
        booking_date: date,
        seat: 1,
        status: 'confirmed' as const,
        cus_name: 'Filler',
        cus_email: 'filler@example.cm',
        phone_number: `+23769${String(1_000_000 + i).slice(-7)}`,
        ticket_code: `F${date.replace(/-/g, '')}${String(i).padStart(2, '0')}`,
        hold_expires_at: null,
        confirmed_at: h.clock.now(),
        created_at: h.clock.now(),
        updated_at: h.clock.now(),
      }));
    await db().insertInto('bookings').values(rows).execute();
  }

  const entry = (id: string) =>
    db().selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  const offersTo = (phone: string) =>
    db()
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', phone)
      .where('kind', '=', 'waitlist_offer')
      .orderBy('created_at')
      .execute();

  const sweep = () => h.app.waitlist.sweep();

  /** Pays for a seat through the real path: initiation, then the simulator's callback. */
  async function pay(date: string, slotIndex: number, phone: string) {
    const res = await h.initiate(initiateBody(h.fx, { date, slotIndex, phone_number: phone }));
    expect(res.statusCode, res.body).toBe(201);
    const paymentId = res.json().payment.payment_id as string;
    const settled = await h.callback(paymentId, 'SUCCESSFUL');
    expect(settled.json(), settled.body).toMatchObject({ outcome: 'confirmed' });
  }

  it('three wait, two cancellations offer the first two in order; one lapses and the third books', async () => {
    const date = s.nextDate();
    const a = await s.book({ date, slotIndex: 20 });
    const b = await s.book({ date, slotIndex: 21 });
    await fill(date, [20, 21]);
    const [p1, p2, p3] = [freshPhone(), freshPhone(), freshPhone()];
    const w1 = await joined(date, p1, 'en');
    const w2 = await joined(date, p2, 'fr');
    const w3 = await joined(date, p3, 'en');
    // No place in the answer (decision 124): the order is the order of joining all the same.
    expect([w1, w2, w3].map((w) => w.entry.position)).toEqual([null, null, null]);
    expect(w1.withdraw_key).toBeTruthy();
    // The organization's hold, which the page says (issue 30: "a short time").
    expect([w1, w2, w3].map((w) => w.offer_minutes)).toEqual([15, 15, 15]);
    // Joining texts nobody.
    for (const p of [p1, p2, p3]) expect(await offersTo(p)).toEqual([]);

    expect((await s.cancel(a.bookingId, a.key)).statusCode).toBe(200);
    expect((await entry(w1.entry.entry_id)).state).toBe('offered');
    expect((await entry(w2.entry.entry_id)).state).toBe('waiting');
    expect((await s.cancel(b.bookingId, b.key)).statusCode).toBe(200);
    const [e1, e2, e3] = await Promise.all([w1, w2, w3].map((w) => entry(w.entry.entry_id)));
    expect([e1?.state, e2?.state, e3?.state]).toEqual(['offered', 'offered', 'waiting']);
    expect(e1?.offered_slot_id).toBe(a.slotId);
    expect(e2?.offered_slot_id).toBe(b.slotId);
    // Held for the organization's 15 minutes.
    expect(e1?.offer_expires_at?.getTime()).toBe(h.clock.now().getTime() + 15 * 60_000);
    expect(await offersTo(p3)).toEqual([]);

    // The SMS: one each, in the entry's language, one GSM part, with the short link.
    const [sms1] = await offersTo(p1);
    const [sms2] = await offersTo(p2);
    expect(sms1?.locale).toBe('en');
    expect(sms2?.locale).toBe('fr');
    expect(sms1?.text_body).toMatch(
      /^Seat free: .*05\/03 at 12:00\. First to pay gets it\. Offer ends 09:45: http:\/\/qless\.test\/w\/[\w-]{22}$/,
    );
    expect(sms2?.text_body).toMatch(
      /^Place libre : .*le 05\/03 à 12h15\. Le 1er qui paie l'obtient\. Offre jusqu'à 09h45 : http:\/\/qless\.test\/w\/[\w-]{22}$/,
    );
    for (const sms of [sms1, sms2]) {
      expect(gsmLength(sms?.text_body ?? '')).toBeLessThanOrEqual(160);
    }
    // The link opens the slots page on the offered slot, the number it was sent to in the
    // fragment (never sent to a server) so the form opens with it (issue 30).
    const link = new URL(sms1?.text_body?.split(' ').pop() ?? '');
    const opened = await h.app.inject({ method: 'GET', url: link.pathname });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(
      `/service/${h.fx.serviceId}/slots?date=${date}&slot=${a.slotId}#tel=${p1.slice(-9)}`,
    );

    // The second pays within the hold; the first lets it lapse.
    await pay(date, 21, p2);
    h.clock.advance(16 * 60_000);
    await sweep();
    const after = await Promise.all([w1, w2, w3].map((w) => entry(w.entry.entry_id)));
    expect(after.map((e) => e?.state)).toEqual(['lapsed', 'booked', 'offered']);
    // A lapsed offer's link still leads to the day, but shows no number.
    const lapsed = await h.app.inject({ method: 'GET', url: link.pathname });
    expect(lapsed.headers.location).toBe(
      `/service/${h.fx.serviceId}/slots?date=${date}&slot=${a.slotId}`,
    );
    expect(after[2]?.offered_slot_id).toBe(a.slotId);
    expect(await offersTo(p3)).toHaveLength(1);

    await pay(date, 20, p3);
    await sweep();
    expect((await entry(w3.entry.entry_id)).state).toBe('booked');
    // Nobody offered twice: one SMS per entry, whatever ran since.
    for (const p of [p1, p2, p3]) expect(await offersTo(p)).toHaveLength(1);
    await sweep();
    for (const p of [p1, p2, p3]) expect(await offersTo(p)).toHaveLength(1);

    // The hold said is the organization's setting, not a fixed 15.
    await db()
      .updateTable('organizations')
      .set({ waitlist_hold_minutes: 25 })
      .where('id', '=', h.fx.orgId)
      .execute();
    expect((await joined(date, freshPhone())).offer_minutes).toBe(25);
    await db()
      .updateTable('organizations')
      .set({ waitlist_hold_minutes: 15 })
      .where('id', '=', h.fx.orgId)
      .execute();
  });

  it('keeps a slot an offer points at when the service changes: retired, never deleted (no 500)', async () => {
    const date = s.nextDate();
    // A slot no booking ever used, offered to someone (as a freshly opened slot would be).
    const slotId = h.fx.slotIds[43] as string;
    const now = h.clock.now();
    await db()
      .insertInto('waitlist_entries')
      .values({
        organization_id: h.fx.orgId,
        service_id: h.fx.serviceId,
        booking_date: date,
        phone: freshPhone(),
        locale: 'en',
        state: 'offered',
        withdraw_key_hash: 'a'.repeat(64),
        offered_slot_id: slotId,
        offered_at: now,
        offer_expires_at: new Date(now.getTime() + 15 * 60_000),
        created_at: now,
        updated_at: now,
      })
      .execute();
    // A new duration regenerates the slots: unused ones are deleted, this one only retired.
    await db()
      .updateTable('services')
      .set({ duration_minutes: 20 })
      .where('id', '=', h.fx.serviceId)
      .execute();
    await db()
      .transaction()
      .execute((trx) => syncServiceSlots(trx, h.fx.serviceId, now));
    const slot = await db()
      .selectFrom('slots')
      .select('retired_at')
      .where('id', '=', slotId)
      .executeTakeFirst();
    expect(slot?.retired_at).not.toBeNull();
    // Back as it was, for the tests after this one.
    await db()
      .updateTable('services')
      .set({ duration_minutes: 15 })
      .where('id', '=', h.fx.serviceId)
      .execute();
    await db()
      .transaction()
      .execute((trx) => syncServiceSlots(trx, h.fx.serviceId, now));
    await db().deleteFrom('waitlist_entries').where('offered_slot_id', '=', slotId).execute();
  });

  it('twenty people racing one freed seat: one booking; the offer is then booked or missed', async () => {
    const date = s.nextDate();
    const slotIndex = 30;
    const holder = await s.book({ date, slotIndex });
    await fill(date, [slotIndex]);
    const waiting = [];
    for (let i = 0; i < 3; i += 1) waiting.push(await joined(date, freshPhone()));
    const first = waiting[0]?.entry.entry_id ?? '';
    const offeredPhone = (await entry(first)).phone;
    expect((await s.cancel(holder.bookingId, holder.key)).statusCode).toBe(200);
    expect((await entry(first)).state).toBe('offered');

    const racers = [offeredPhone, ...Array.from({ length: 19 }, () => freshPhone())];
    const answers = await Promise.all(
      racers.map((phone) =>
        h.initiate(initiateBody(h.fx, { date, slotIndex, phone_number: phone })),
      ),
    );
    const won = answers.filter((r) => r.statusCode === 201);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((r) => r.statusCode !== 201)) {
      expect(lost.statusCode, lost.body).toBe(409);
      expect(lost.json()).toMatchObject({ code: 'SLOT_TAKEN' });
    }
    const paymentId = won[0]?.json().payment.payment_id as string;
    expect((await h.callback(paymentId, 'SUCCESSFUL')).json()).toMatchObject({
      outcome: 'confirmed',
    });
    const active = await db()
      .selectFrom('bookings')
      .select(['id', 'phone_number'])
      .where('slot_id', '=', h.fx.slotIds[slotIndex] ?? '')
      .where('booking_date', '=', date)
      .where('status', 'in', ['held', 'confirmed', 'checked_in'])
      .execute();
    expect(active).toHaveLength(1);
    await sweep();
    const winner = active[0]?.phone_number;
    expect((await entry(first)).state).toBe(winner === offeredPhone ? 'booked' : 'missed');
    // The seat is gone: nobody else is offered anything.
    for (const w of waiting.slice(1)) {
      expect((await entry(w.entry.entry_id)).state).toBe('waiting');
    }
    const offers = await db()
      .selectFrom('outbox')
      .select('id')
      .where('kind', '=', 'waitlist_offer')
      .where('subject', '=', `Waitlist offer ${date}`)
      .execute();
    expect(offers).toHaveLength(1);
  });

  it('joins only a full day ahead: 409 on a free or past day, 404 for no service, 400 for a bad number', async () => {
    const free = await join(s.nextDate(), freshPhone());
    expect(free.statusCode).toBe(409);
    expect(free.json()).toMatchObject({ code: 'WAITLIST_DAY_NOT_FULL' });
    const past = await join('2026-03-03', freshPhone());
    expect(past.statusCode).toBe(409);
    expect(past.json()).toMatchObject({ code: 'WAITLIST_DAY_PASSED' });
    const far = await join(addDays('2026-03-04', 400), freshPhone());
    expect(far.json()).toMatchObject({ code: 'DATE_OUT_OF_HORIZON' });
    const none = await join(s.nextDate(), freshPhone(), {
      serviceId: '00000000-0000-4000-8000-000000000000',
    });
    expect(none.statusCode).toBe(404);
    const bad = await join(s.nextDate(), '12345');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_PHONE' });
    // Today: every slot still ahead taken, the earlier ones free but begun: full.
    const today = '2026-03-04';
    await fill(today, [0, 1, 2, 3, 4, 5]);
    const now = await join(today, freshPhone());
    expect(now.statusCode, now.body).toBe(201);
    expect(await db().selectFrom('waitlist_entries').select('id').execute()).not.toHaveLength(0);
  });

  it('a number already waiting and a new one get the same answer, field by field, and their keys withdraw alike; only the first key takes the number off', async () => {
    const date = s.nextDate();
    const held = await s.book({ date, slotIndex: 10 });
    await fill(date, [10]);
    const phone = freshPhone();
    const first = await joined(date, phone);
    // Whoever types numbers: the waiting one, then a new one, then the waiting one again.
    const again = await join(date, phone);
    const fresh = await join(date, freshPhone());
    const thrice = await join(date, phone);
    const answers = [again, fresh, thrice].map((res) => {
      expect(res.statusCode, res.body).toBe(201);
      const raw = res.json() as { entry: object };
      return { status: res.statusCode, raw, body: waitlistJoinResponseSchema.parse(raw) };
    });
    const shape = (a: (typeof answers)[number] | undefined) => ({
      status: a?.status,
      // As sent, not as parsed: a field the schema does not name would show here.
      keys: Object.keys(a?.raw ?? {}).sort(),
      entryKeys: Object.keys(a?.raw.entry ?? {}).sort(),
      service_id: a?.body.entry.service_id,
      date: a?.body.entry.date,
      state: a?.body.entry.state,
      position: a?.body.entry.position,
      already_waiting: a?.body.already_waiting,
      offer_minutes: a?.body.offer_minutes,
      keyShape: /^[\w-]{32}$/.test(a?.body.withdraw_key ?? ''),
    });
    expect(shape(answers[0])).toEqual(shape(answers[1]));
    expect(shape(answers[2])).toEqual(shape(answers[1]));
    expect(shape(answers[1])).toMatchObject({ state: 'waiting', position: null, keyShape: true });
    // Ids are new each time: none names the entry that waits.
    const ids = [first, ...answers.map((a) => a.body)].map((b) => b.entry.entry_id);
    expect(new Set(ids).size).toBe(4);
    // The keys answered withdraw alike: 200, the same shape, whether or not the number waited.
    const withdraw = (entryId: string, key: string) =>
      h.app.inject({
        method: 'DELETE',
        url: `/api/v1/service/${h.fx.serviceId}/waitlist/${entryId}?key=${key}`,
      });
    const byAnswer = [];
    for (const a of answers) {
      const res = await withdraw(a.body.entry.entry_id, a.body.withdraw_key ?? '');
      expect(res.statusCode, res.body).toBe(200);
      const { entry: gone } = res.json() as { entry: Record<string, unknown> };
      byAnswer.push({ ...gone, entry_id: undefined });
    }
    expect(byAnswer[0]).toEqual(byAnswer[1]);
    expect(byAnswer[0]).toMatchObject({ state: 'withdrawn', position: null });
    // The repeat's key took nothing off: the number still waits, first in line.
    expect((await entry(first.entry.entry_id)).state).toBe('waiting');
    // The web app sends the key in X-Waitlist-Key, never in the address (decision 124).
    const byHeader = await joined(date, freshPhone());
    const headerWithdraw = await h.app.inject({
      method: 'DELETE',
      url: `/api/v1/service/${h.fx.serviceId}/waitlist/${byHeader.entry.entry_id}`,
      headers: { 'x-waitlist-key': byHeader.withdraw_key ?? '' },
    });
    expect(headerWithdraw.statusCode, headerWithdraw.body).toBe(200);
    expect((await entry(byHeader.entry.entry_id)).state).toBe('withdrawn');
    const keyless = await h.app.inject({
      method: 'DELETE',
      url: `/api/v1/service/${h.fx.serviceId}/waitlist/${first.entry.entry_id}`,
    });
    expect(keyless.statusCode).toBe(404);
    // A number typed at a day that is not full, or a service that does not exist, is not
    // counted against it (nobody can lock a stranger out of every waitlist).
    const other = freshPhone();
    for (let i = 0; i < 8; i += 1) {
      expect((await join(s.nextDate(), other)).statusCode).toBe(409);
    }
    const full = s.nextDate();
    await fill(full);
    expect((await join(full, other)).statusCode).toBe(201);
    const next = await joined(date, freshPhone());
    const url = (key: string) =>
      `/api/v1/service/${h.fx.serviceId}/waitlist/${first.entry.entry_id}?key=${key}`;
    const wrong = await h.app.inject({ method: 'DELETE', url: url('x'.repeat(32)) });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ code: 'WAITLIST_ENTRY_NOT_FOUND' });
    // Offered, then withdrawn: the seat goes to the next in line.
    expect((await s.cancel(held.bookingId, held.key)).statusCode).toBe(200);
    expect((await entry(first.entry.entry_id)).state).toBe('offered');
    const gone = await h.app.inject({ method: 'DELETE', url: url(first.withdraw_key ?? '') });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toMatchObject({ entry: { state: 'withdrawn', position: null } });
    expect((await entry(next.entry.entry_id)).state).toBe('offered');
  });

  it('a move away and an organization cancel free seats; the hold is the organization’s', async () => {
    const date = s.nextDate();
    const moving = await s.book({ date, slotIndex: 40 });
    const cancelled = await s.book({ date, slotIndex: 41 });
    await fill(date, [40, 41]);
    const admin = await signedIn(h.app, db(), {
      email: 'waitlist-admin@example.cm',
      role: 'org_admin',
      organizationId: h.fx.orgId,
    });
    const profile = (waitlist_hold_minutes: number) =>
      h.app.inject({
        method: 'PATCH',
        url: '/api/v1/organization/update/profile',
        headers: admin.headers,
        payload: {
          name: 'Guichet Unique ',
          start_time: '07:00',
          end_time: '18:00',
          waitlist_hold_minutes,
        },
      });
    for (const bad of [4, 121]) {
      const refused = await profile(bad);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'INVALID_WAITLIST_HOLD' });
    }
    const saved = await profile(30);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ organizationData: { waitlist_hold_minutes: 30 } });
    const w1 = await joined(date, freshPhone(), 'fr');
    const w2 = await joined(date, freshPhone());
    const to = { slot_id: h.fx.slotIds[5] ?? '', date: s.farDate() };
    expect((await s.reschedule(moving.bookingId, moving.key, to)).statusCode).toBe(200);
    const e1 = await entry(w1.entry.entry_id);
    expect(e1).toMatchObject({ state: 'offered', offered_slot_id: moving.slotId });
    expect(e1.offer_expires_at?.getTime()).toBe(h.clock.now().getTime() + 30 * 60_000);

    const res = await h.app.inject({
      method: 'POST',
      url: `/api/v1/organization/bookings/${cancelled.bookingId}/cancel`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await entry(w2.entry.entry_id)).toMatchObject({
      state: 'offered',
      offered_slot_id: cancelled.slotId,
    });
    expect((await profile(15)).statusCode).toBe(200);
  });

  it('a hold that lapses or a payment that fails frees its seat for the line at the next sweep', async () => {
    const date = s.nextDate();
    const lapsing = await s.hold({ date, slotIndex: 2 });
    const failing = await s.hold({ date, slotIndex: 3 });
    await fill(date, [2, 3]);
    const w1 = await joined(date, freshPhone());
    const w2 = await joined(date, freshPhone());
    // A full day with only people waiting is not settled by the sweep: nothing can change.
    const settled = async () =>
      (await listDaysToSettle(db(), 1000, h.clock.now())).some((d) => d.booking_date === date);
    expect(await settled()).toBe(false);
    // The payment fails: its hold is released, nobody is told until the sweep runs.
    expect((await h.callback(failing.paymentId, 'FAILED')).statusCode).toBe(200);
    expect(await settled()).toBe(true);
    expect((await entry(w1.entry.entry_id)).state).toBe('waiting');
    await sweep();
    expect(await entry(w1.entry.entry_id)).toMatchObject({
      state: 'offered',
      offered_slot_id: failing.slotId,
    });
    expect((await entry(w2.entry.entry_id)).state).toBe('waiting');
    // The other hold runs out (never paid): its seat goes to the next in line.
    const saved = h.clock.now();
    h.clock.advance(11 * 60_000);
    await sweep();
    expect(await entry(w2.entry.entry_id)).toMatchObject({
      state: 'offered',
      offered_slot_id: lapsing.slotId,
    });
    h.clock.set(saved);
  });

  it('nobody is told after the day: the line expires, a pending offer SMS is skipped', async () => {
    const date = s.nextDate();
    const held = await s.book({ date, slotIndex: 43 });
    await fill(date, [43]);
    const w1 = await joined(date, freshPhone());
    const w2 = await joined(date, freshPhone());
    expect((await s.cancel(held.bookingId, held.key)).statusCode).toBe(200);
    const [sms] = await offersTo((await entry(w1.entry.entry_id)).phone);
    expect(sms?.status).toBe('pending');
    // A seat frees after the day (the filler's booking is cancelled the next morning).
    const saved = h.clock.now();
    h.clock.set(`${addDays(date, 1)}T07:00:00Z`);
    await db()
      .updateTable('bookings')
      .set({ status: 'cancelled' })
      .where('slot_id', '=', h.fx.slotIds[0] ?? '')
      .where('booking_date', '=', date)
      .execute();
    await sweep();
    expect((await entry(w1.entry.entry_id)).state).toBe('expired');
    expect((await entry(w2.entry.entry_id)).state).toBe('expired');
    expect(await offersTo((await entry(w2.entry.entry_id)).phone)).toEqual([]);
    const read = () =>
      db()
        .selectFrom('outbox')
        .select(['status', 'last_error'])
        .where('id', '=', sms?.id ?? '')
        .executeTakeFirstOrThrow();
    // The worker takes the outbox 20 rows at a time (the file's other messages too).
    for (let i = 0; i < 20 && (await read()).status === 'pending'; i += 1) {
      await h.app.messaging.worker?.sweep();
    }
    const after = await read();
    expect(after).toEqual({ status: 'skipped', last_error: 'waitlist entry is expired' });
    h.clock.set(saved);
  });

  it('caps: three days per number at once, joins per number and per address', async () => {
    const phone = freshPhone();
    const days = [s.nextDate(), s.nextDate(), s.nextDate(), s.nextDate()];
    for (const day of days) await fill(day);
    for (const day of days.slice(0, 3)) await joined(day, phone);
    const fourth = await join(days[3] ?? '', phone);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ code: 'TOO_MANY_WAITLIST_ENTRIES' });
    // Joins of one number, counted from every address (6 a day): the 7th is refused.
    const busy = freshPhone();
    const answers = [];
    for (let i = 0; i < 7; i += 1) answers.push((await join(days[3] ?? '', busy)).statusCode);
    expect(answers).toEqual([201, 201, 201, 201, 201, 201, 429]);
    // Joins from one address (10 an hour), whatever the answer.
    const address = '10.99.0.1';
    const fromOne = [];
    for (let i = 0; i < 11; i += 1) {
      fromOne.push((await join(days[0] ?? '', freshPhone(), { address })).statusCode);
    }
    expect(fromOne.slice(0, 10).every((code) => code === 201)).toBe(true);
    expect(fromOne[10]).toBe(429);
  });
});
