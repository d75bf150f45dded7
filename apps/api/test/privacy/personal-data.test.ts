// engines: postgres and pglite — the retention sweep's SQL (time zones, CTE updates) on both engines
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema.js';
import { FEEDBACK_HOLD_MS } from '../../src/modules/feedback/feedback-messages.js';
import { retentionDue, sweepPersonalData } from '../../src/modules/privacy/retention-sweep.js';
import { bearer, signedIn, signIn } from '../support/auth-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { queueApi } from '../support/queue-helpers.js';
import { useSimulatorApp } from '../support/simulator-harness.js';
import { PINNED_NOW } from '../support/test-app.js';

const DAY = 86_400_000;
const RETENTION_DAYS = 90;
const OLD_PHONE = '+237677000111';
const RECENT_PHONE = '+237677000444';
const VISIT_PHONE = '+237677000222';
const WAITLIST_PHONE = '+237677000333';

/** Every column decision 031 lists as personal, read back for the assertions. */
function personal(db: Kysely<DB>) {
  return {
    booking: (id: string) =>
      db
        .selectFrom('bookings')
        .select([
          'cus_name',
          'cus_email',
          'phone_number',
          'client_address',
          'status',
          'ticket_code',
          'personal_data_erased_at',
        ])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    payments: (bookingId: string) =>
      db
        .selectFrom('payments')
        .select(['phone_number', 'status', 'amount', 'reference', 'personal_data_erased_at'])
        .where('booking_id', '=', bookingId)
        .execute(),
    events: (bookingId: string) =>
      db
        .selectFrom('payment_events as e')
        .innerJoin('payments as p', 'p.id', 'e.payment_id')
        .select(['e.payload', 'e.outcome', 'e.personal_data_erased_at'])
        .where('p.booking_id', '=', bookingId)
        .execute(),
    visit: (id: string) =>
      db
        .selectFrom('visits')
        .select(['customer_name', 'phone', 'client_address', 'state', 'personal_data_erased_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    outbox: (where: { bookingId?: string; dedupe?: string }) => {
      let q = db
        .selectFrom('outbox')
        .select([
          'to_address',
          'subject',
          'text_body',
          'html_body',
          'status',
          'channel',
          'kind',
          'attempts',
          'sent_at',
          'dedupe_key',
          'personal_data_erased_at',
        ]);
      if (where.bookingId) q = q.where('booking_id', '=', where.bookingId);
      if (where.dedupe) q = q.where('dedupe_key', 'like', where.dedupe);
      return q.orderBy('id').execute();
    },
  };
}

describe('personal data past its retention', () => {
  const h = useSimulatorApp();
  const q = queueApi(() => h.app);
  const ids = { old: '', recent: '', visit: '', waitlist: '', contact: '', orphanEvent: '' };
  let admin = { headers: { authorization: '' } };
  const insightUrl = '/organization/insight?from=2026-03-04&to=2026-03-05';

  async function pay(date: string, slotIndex: number, phone: string, name: string) {
    const res = await h.initiate(
      initiateBody(h.fx, {
        date,
        slotIndex,
        phone_number: phone,
        cus_name: name,
        cus_email: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { payment_id, booking_id } = res.json().payment as {
      payment_id: string;
      booking_id: string;
    };
    // A provider's body naming the payer, as Campay's does.
    const settled = await h.callback(payment_id, 'SUCCESSFUL', {
      phone_number: phone.slice(1),
      external_user: name,
    });
    expect(settled.json(), settled.body).toMatchObject({ outcome: 'confirmed' });
    return booking_id;
  }

  beforeAll(async () => {
    const db = h.database.db;
    h.clock.set(PINNED_NOW);
    admin = await signedIn(h.app, db, {
      email: 'admin@guichet.cm',
      role: 'org_admin',
      organizationId: h.fx.orgId,
    });
    const staff = await signedIn(h.app, db, {
      email: 'staff@guichet.cm',
      role: 'staff',
      organizationId: h.fx.orgId,
    });
    // A booking paid for tomorrow 07:00 (it ends 07:15 on 5 March), and one in May.
    ids.old = await pay('2026-03-05', 0, OLD_PHONE, 'Ngono Marie');
    ids.recent = await pay('2026-05-01', 0, RECENT_PHONE, 'Atangana Paul');
    // A walk-in with a phone, served and done today; its feedback with a comment.
    const counter = await q.openCounter(admin.headers, 'Guichet 1', [h.fx.serviceId]);
    const visit = await q.walkIn(staff.headers, h.fx.serviceId, 'Ebode Jean', VISIT_PHONE);
    ids.visit = visit.visit_id;
    for (const action of ['call-next', 'start', 'done']) {
      const res = await q.act(staff.headers, counter.counter_id, action);
      expect(res.statusCode, res.body).toBe(200);
    }
    await db
      .insertInto('visit_feedback')
      .values({
        visit_id: ids.visit,
        organization_id: h.fx.orgId,
        service_id: h.fx.serviceId,
        visit_date: '2026-03-04',
        rating: 4,
        comment: 'Rapide, merci',
        locale: 'fr',
      })
      .execute();
    // A waitlist entry that ended (its day passed).
    const entry = await db
      .insertInto('waitlist_entries')
      .values({
        organization_id: h.fx.orgId,
        service_id: h.fx.serviceId,
        booking_date: '2026-03-05',
        phone: WAITLIST_PHONE,
        locale: 'fr',
        state: 'expired',
        client_address: '10.1.2.3',
        withdraw_key_hash: 'a'.repeat(64),
        ended_at: h.clock.now(),
        created_at: h.clock.now(),
        updated_at: h.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.waitlist = entry.id;
    // A contact request, and a callback about no payment of ours naming a number.
    const contact = await h.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: {
        user_name: 'Banque Exemple',
        user_email: 'direction@banque.cm',
        message: 'Appelez Mme Biya au 677 000 555',
        contact_name: 'Mme Biya',
        phone: '677000555',
      },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    ids.contact = contact.json().id;
    const orphan = await db
      .insertInto('payment_events')
      .values({
        payment_id: null,
        provider: 'simulator',
        source: 'callback',
        signature_valid: true,
        outcome: 'unknown_payment',
        payload: JSON.stringify({ status: 'SUCCESSFUL', phone_number: '237677000666' }),
        received_at: h.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.orphanEvent = orphan.id;
    // Every message due is sent now (confirmations, the feedback SMS once the counter's Undo
    // window is over).
    h.clock.advance(FEEDBACK_HOLD_MS);
    await h.app.messaging.worker?.sweep();
  });

  it('erases every personal column of what finished more than N days ago, and nothing else', async () => {
    const db = h.database.db;
    const read = personal(db);
    const sms = await read.outbox({ dedupe: `visit:${ids.visit}:%` });
    expect(sms.some((m) => m.status === 'sent' && m.to_address === VISIT_PHONE)).toBe(true);
    const insight = async (headers = admin.headers) => {
      const res = await h.app.inject({ method: 'GET', url: `/api/v1${insightUrl}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      // The period's figures; the SMS budget is this month's (now, not the period's).
      const { messages, ...figures } = res.json();
      return { ...figures, messages: { ...messages, budget: null } };
    };
    const before = await insight();
    const recentBefore = {
      booking: await read.booking(ids.recent),
      payments: await read.payments(ids.recent),
      events: await read.events(ids.recent),
      messages: await read.outbox({ bookingId: ids.recent }),
    };
    const oldPayments = await read.payments(ids.old);
    const oldMessages = await read.outbox({ bookingId: ids.old });
    expect(oldMessages.length).toBeGreaterThan(0);

    // N days after the old booking's slot ended (07:15 Douala on 5 March), less a minute:
    // what ended on 4 March is due (the visit, the waitlist entry, the contact request, the
    // stray callback), the booking not yet.
    const slotEnd = Date.parse('2026-03-05T06:15:00Z');
    h.clock.set(new Date(slotEnd + RETENTION_DAYS * DAY - 60_000).toISOString());
    const earlyAt = h.clock.now();
    const early = await sweepPersonalData(db, earlyAt, RETENTION_DAYS);
    expect(early).toMatchObject({
      bookings: 0,
      payments: 0,
      payment_events: 1,
      visits: 1,
      waitlist_entries: 1,
      contact_requests: 1,
      more: false,
    });
    expect(early.messages).toBeGreaterThanOrEqual(1);
    expect((await read.booking(ids.old)).personal_data_erased_at).toBeNull();

    h.clock.set(new Date(slotEnd + RETENTION_DAYS * DAY + 60_000).toISOString());
    const now = h.clock.now();
    const swept = await sweepPersonalData(db, now, RETENTION_DAYS);
    expect(swept).toMatchObject({ bookings: 1, payments: 1, visits: 0, more: false });
    expect(swept.payment_events).toBeGreaterThanOrEqual(1);

    // Bookings: name, e-mail, phone, address replaced; status and ticket kept.
    const old = await read.booking(ids.old);
    expect(old).toMatchObject({
      cus_name: '—',
      cus_email: '',
      phone_number: '',
      client_address: null,
      status: 'confirmed',
      personal_data_erased_at: now,
    });
    expect(old.ticket_code).not.toBeNull();
    // Payments: the payer's number gone; state, amount and reference kept.
    const payments = await read.payments(ids.old);
    expect(payments).toEqual(
      oldPayments.map((p) => ({ ...p, phone_number: '', personal_data_erased_at: now })),
    );
    // Payment events: state and references kept, the provider's names and numbers gone.
    for (const e of await read.events(ids.old)) {
      expect(e.personal_data_erased_at).toEqual(now);
      const text = JSON.stringify(e.payload);
      expect(text).not.toContain('677000111');
      expect(text).not.toContain('Ngono');
    }
    const anyEvent = (await read.events(ids.old)).find((e) =>
      JSON.stringify(e.payload).includes('SUCCESSFUL'),
    );
    expect(anyEvent).toBeDefined();
    const orphan = await db
      .selectFrom('payment_events')
      .select(['payload'])
      .where('id', '=', ids.orphanEvent)
      .executeTakeFirstOrThrow();
    expect(orphan.payload).toEqual({ status: 'SUCCESSFUL' });
    // Messages of the booking: recipient and text gone; channel, kind, state, attempts kept
    // (an e-mail still waiting, with no SMTP server here, is skipped: no one to send it to).
    expect(oldMessages.some((m) => m.channel === 'sms' && m.status === 'sent')).toBe(true);
    const messages = await read.outbox({ bookingId: ids.old });
    expect(messages).toEqual(
      oldMessages.map((m) => ({
        ...m,
        status: m.status === 'pending' ? 'skipped' : m.status,
        to_address: '',
        subject: null,
        text_body: null,
        html_body: null,
        personal_data_erased_at: now,
      })),
    );
    // The visit and its SMS; the feedback's rating and comment stay (they name no one).
    expect(await read.visit(ids.visit)).toEqual({
      customer_name: '',
      phone: null,
      client_address: null,
      state: 'done',
      personal_data_erased_at: earlyAt,
    });
    for (const m of await read.outbox({ dedupe: `visit:${ids.visit}:%` })) {
      expect(m).toMatchObject({
        to_address: '',
        text_body: null,
        personal_data_erased_at: earlyAt,
      });
    }
    const entry = await db
      .selectFrom('waitlist_entries')
      .select(['phone', 'client_address', 'state'])
      .where('id', '=', ids.waitlist)
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ phone: '', client_address: null, state: 'expired' });
    const contact = await db
      .selectFrom('contact_requests')
      .select(['user_name', 'user_email', 'message', 'contact_name', 'phone', 'status'])
      .where('id', '=', ids.contact)
      .executeTakeFirstOrThrow();
    expect(contact).toEqual({
      user_name: '—',
      user_email: '',
      message: '',
      contact_name: '',
      phone: '',
      status: 'new',
    });
    // No column anywhere still holds the erased numbers.
    for (const phone of [OLD_PHONE, VISIT_PHONE, WAITLIST_PHONE]) {
      const found = await db
        .selectFrom('outbox')
        .select('id')
        .where('to_address', '=', phone)
        .execute();
      expect(found, phone).toEqual([]);
    }

    // The booking still within N days (its slot is on 1 May) is untouched, with its payment,
    // events and messages; staff accounts are kept.
    expect({
      booking: await read.booking(ids.recent),
      payments: await read.payments(ids.recent),
      events: await read.events(ids.recent),
      messages: await read.outbox({ bookingId: ids.recent }),
    }).toEqual(recentBefore);
    expect(recentBefore.booking.phone_number).toBe(RECENT_PHONE);
    const staff = await db.selectFrom('users').select('email').orderBy('email').execute();
    expect(staff.map((u) => u.email)).toEqual(['admin@guichet.cm', 'staff@guichet.cm']);

    // Insight's figures for the period are the same (a fresh session: months went by).
    expect(await insight(bearer(await signIn(h.app, 'admin@guichet.cm')))).toEqual(before);

    // Idempotent: nothing is due any more, a second sweep erases nothing.
    expect(await retentionDue(db, new Date(now.getTime() - RETENTION_DAYS * DAY))).toBe(false);
    h.clock.set(new Date(now.getTime() + DAY).toISOString());
    const again = await sweepPersonalData(db, h.clock.now(), RETENTION_DAYS);
    expect(Object.values(again).every((v) => v === 0 || v === false)).toBe(true);
    expect((await read.booking(ids.old)).personal_data_erased_at).toEqual(now);
  });
});

describe("an operator's export and erasure of one person's data", () => {
  const lines: string[] = [];
  const h = useSimulatorApp({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => lines.push(line) },
  });
  const q = queueApi(() => h.app);
  const PHONE = '+237677000777';
  const EMAIL = 'ada.mbarga@example.com';
  let operator = { headers: { authorization: '' } };
  let admin = { headers: { authorization: '' } };
  let staff = { headers: { authorization: '' } };
  let bookingId = '';
  let emailBookingId = '';

  const exportOf = (query: string, headers: Record<string, string> | null = operator.headers) =>
    h.app.inject({
      method: 'GET',
      url: `/api/v1/platform/personal-data?${query}`,
      ...(headers ? { headers } : {}),
    });
  const erase = (payload: unknown, headers: Record<string, string> | null = operator.headers) =>
    h.app.inject({
      method: 'POST',
      url: '/api/v1/platform/personal-data/erase',
      payload: payload as Record<string, unknown>,
      ...(headers ? { headers } : {}),
    });

  beforeAll(async () => {
    const db = h.database.db;
    h.clock.set(PINNED_NOW);
    operator = await signedIn(h.app, db, { email: 'ops@qless.cm', role: 'operator' });
    admin = await signedIn(h.app, db, {
      email: 'admin@guichet.cm',
      role: 'org_admin',
      organizationId: h.fx.orgId,
    });
    staff = await signedIn(h.app, db, {
      email: 'staff@guichet.cm',
      role: 'staff',
      organizationId: h.fx.orgId,
    });
    // An upcoming booking paid by the person, and another booked with their e-mail only.
    const paid = async (phone: string, email: string, date: string) => {
      const res = await h.initiate(
        initiateBody(h.fx, { date, phone_number: phone, cus_name: 'Mbarga Ada', cus_email: email }),
      );
      expect(res.statusCode, res.body).toBe(201);
      const { payment_id, booking_id } = res.json().payment;
      expect((await h.callback(payment_id, 'SUCCESSFUL')).json()).toMatchObject({
        outcome: 'confirmed',
      });
      return booking_id as string;
    };
    bookingId = await paid(PHONE, 'other@example.com', '2026-03-10');
    emailBookingId = await paid('+237699000001', EMAIL.toUpperCase(), '2026-03-11');
    // A visit with a comment; a place on a waitlist; a contact request typed another way.
    const counter = await q.openCounter(admin.headers, 'Guichet 1', [h.fx.serviceId]);
    const visit = await q.walkIn(staff.headers, h.fx.serviceId, 'Mbarga Ada', PHONE);
    for (const action of ['call-next', 'start', 'done']) {
      expect((await q.act(staff.headers, counter.counter_id, action)).statusCode).toBe(200);
    }
    await db
      .insertInto('visit_feedback')
      .values({
        visit_id: visit.visit_id,
        organization_id: h.fx.orgId,
        service_id: h.fx.serviceId,
        visit_date: '2026-03-04',
        rating: 2,
        comment: 'Trop long',
        locale: 'fr',
      })
      .execute();
    // It asked for WhatsApp (for the booking and the walk-in), and a phone followed it by push.
    await db
      .updateTable('bookings')
      .set({ whatsapp_opt_in_at: new Date('2026-03-04T07:00:00Z') })
      .where('id', '=', bookingId)
      .execute();
    await db
      .updateTable('visits')
      .set({ whatsapp_opt_in_at: new Date('2026-03-04T08:00:00Z') })
      .where('id', '=', visit.visit_id)
      .execute();
    await db
      .insertInto('push_subscriptions')
      .values({
        about: `visit:${visit.visit_id}`,
        endpoint: 'https://fcm.googleapis.com/fcm/send/ada-phone',
        p256dh: 'p256dh',
        auth: 'auth',
        locale: 'fr',
        created_at: new Date('2026-03-04T08:00:00Z'),
        expires_at: new Date('2026-03-05T08:00:00Z'),
      })
      .execute();
    await db
      .insertInto('waitlist_entries')
      .values({
        organization_id: h.fx.orgId,
        service_id: h.fx.serviceId,
        booking_date: '2026-03-12',
        phone: PHONE,
        locale: 'fr',
        withdraw_key_hash: 'b'.repeat(64),
        created_at: h.clock.now(),
        updated_at: h.clock.now(),
      })
      .execute();
    const contact = await h.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: {
        user_name: 'Clinique Exemple',
        user_email: EMAIL,
        message: 'Bonjour',
        contact_name: 'Ada',
        phone: '+237 6 77 00 07 77',
      },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    await h.app.messaging.worker?.sweep();
  });

  it('is for platform operators only', async () => {
    for (const headers of [null, admin.headers, staff.headers]) {
      const status = headers ? 403 : 401;
      expect((await exportOf(`phone=${PHONE}`, headers)).statusCode).toBe(status);
      expect((await erase({ phone: PHONE, confirm: true }, headers)).statusCode).toBe(status);
    }
    const still = await exportOf(`phone=${encodeURIComponent(PHONE)}`);
    expect(still.json().bookings).toHaveLength(1);
  });

  it('refuses bad input with stable codes', async () => {
    const cases: [Promise<{ statusCode: number; json(): { code: string } }>, string][] = [
      [exportOf(''), 'INVALID_QUERY'],
      [exportOf(`phone=677000777&email=${EMAIL}`), 'INVALID_QUERY'],
      [exportOf('phone=12345'), 'INVALID_PHONE'],
      [exportOf('email=not-an-email'), 'INVALID_EMAIL'],
      [erase({ phone: PHONE }), 'CONFIRMATION_REQUIRED'],
      [erase({ phone: PHONE, confirm: false }), 'CONFIRMATION_REQUIRED'],
      [erase({ confirm: true }), 'INVALID_BODY'],
      [erase({ phone: '+33612345678', confirm: true }), 'INVALID_PHONE'],
    ];
    for (const [pending, code] of cases) {
      const res = await pending;
      expect(res.statusCode, code).toBe(400);
      expect(res.json().code).toBe(code);
    }
  });

  it('exports everything held about a phone number, however it is written, as a download', async () => {
    const res = await exportOf(`phone=${encodeURIComponent('6 77 00 07 77')}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="qless-personal-data-2026-03-04\.json"$/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.subject).toEqual({ phone: PHONE, email: null });
    expect(body.retention_days).toBe(90);
    expect(body.bookings).toEqual([
      expect.objectContaining({
        id: bookingId,
        cus_name: 'Mbarga Ada',
        phone_number: PHONE,
        whatsapp_opt_in_at: '2026-03-04T07:00:00.000Z',
      }),
    ]);
    expect(body.payments).toEqual([
      expect.objectContaining({ booking_id: bookingId, phone_number: PHONE, status: 'SUCCESSFUL' }),
    ]);
    expect(body.payment_events.length).toBeGreaterThan(0);
    expect(body.visits).toEqual([
      expect.objectContaining({
        customer_name: 'Mbarga Ada',
        phone: PHONE,
        state: 'done',
        whatsapp_opt_in_at: '2026-03-04T08:00:00.000Z',
      }),
    ]);
    expect(body.push_subscriptions).toEqual([
      {
        id: expect.any(String),
        about: `visit:${body.visits[0].id}`,
        endpoint: 'https://fcm.googleapis.com/fcm/send/ada-phone',
        locale: 'fr',
        created_at: '2026-03-04T08:00:00.000Z',
        expires_at: '2026-03-05T08:00:00.000Z',
        gone_at: null,
      },
    ]);
    expect(body.feedback).toEqual([expect.objectContaining({ rating: 2, comment: 'Trop long' })]);
    expect(body.waitlist_entries).toEqual([
      expect.objectContaining({ phone: PHONE, state: 'waiting', booking_date: '2026-03-12' }),
    ]);
    expect(body.contact_requests).toEqual([expect.objectContaining({ contact_name: 'Ada' })]);
    expect(body.messages.some((m: { to_address: string }) => m.to_address === PHONE)).toBe(true);
    // The same by POST (the console's: no number in a URL).
    const posted = await h.app.inject({
      method: 'POST',
      url: '/api/v1/platform/personal-data/export',
      headers: operator.headers,
      payload: { phone: '+237 677 000 777' },
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect({ ...posted.json(), generated_at: null }).toEqual({ ...body, generated_at: null });
    const empty = await h.app.inject({
      method: 'POST',
      url: '/api/v1/platform/personal-data/export',
      headers: operator.headers,
      payload: {},
    });
    expect(empty.json().code).toBe('INVALID_BODY');
    // By e-mail, whatever its case: the booking made with it and the contact request.
    const byEmail = (await exportOf(`email=${encodeURIComponent(EMAIL.toUpperCase())}`)).json();
    expect(byEmail.bookings.map((b: { id: string }) => b.id)).toEqual([emailBookingId]);
    expect(byEmail.contact_requests).toHaveLength(1);
  });

  it('erases it all at once; the upcoming booking stays valid; the export then finds nothing', async () => {
    const res = await erase({ phone: '677000777', confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.withdrawn_waitlist_entries).toBe(1);
    expect(body.erased).toMatchObject({
      bookings: 1,
      payments: 1,
      visits: 1,
      waitlist_entries: 1,
      contact_requests: 1,
      feedback_comments: 1,
    });
    expect(body.erased.messages).toBeGreaterThan(0);
    expect(body.erased.payment_events).toBeGreaterThan(0);
    // The booking keeps its seat and ticket; its key still opens it, with no name on it.
    const db = h.database.db;
    const booking = await db
      .selectFrom('bookings')
      .select(['status', 'ticket_code', 'cus_name', 'phone_number'])
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(booking).toMatchObject({ status: 'confirmed', cus_name: '—', phone_number: '' });
    // The WhatsApp opt-ins went with the number, and the phone followed by push with the visit.
    const optIn = await db
      .selectFrom('bookings')
      .select('whatsapp_opt_in_at')
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(optIn.whatsapp_opt_in_at).toBeNull();
    const visits = await db
      .selectFrom('visits')
      .select('whatsapp_opt_in_at')
      .where('customer_name', '=', '')
      .execute();
    expect(visits.length).toBeGreaterThan(0);
    expect(visits.every((v) => v.whatsapp_opt_in_at === null)).toBe(true);
    expect(
      await db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('endpoint', '=', 'https://fcm.googleapis.com/fcm/send/ada-phone')
        .execute(),
    ).toEqual([]);
    const own = await h.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${bookingId}`,
      headers: { 'x-booking-key': h.app.payments.access.keyFor(bookingId) },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.body).not.toContain('Mbarga');
    // Nothing is found any more, by either of its forms.
    const after = (await exportOf(`phone=${encodeURIComponent(PHONE)}`)).json();
    for (const kind of [
      'bookings',
      'payments',
      'payment_events',
      'visits',
      'feedback',
      'waitlist_entries',
      'messages',
      'contact_requests',
      'push_subscriptions',
    ]) {
      expect(after[kind], kind).toEqual([]);
    }
    // A second erasure finds nothing to do.
    const again = (await erase({ phone: PHONE, confirm: true })).json();
    expect(Object.values(again.erased).every((n) => n === 0)).toBe(true);
    // The e-mail's own booking is another person's phone: untouched by the phone's erasure.
    const other = await db
      .selectFrom('bookings')
      .select(['cus_email'])
      .where('id', '=', emailBookingId)
      .executeTakeFirstOrThrow();
    expect(other.cus_email).toBe(EMAIL.toUpperCase());
  });

  it('waits for a payment under way', async () => {
    const res = await h.initiate(
      initiateBody(h.fx, { date: '2026-03-13', phone_number: '+237677000888' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const refused = await erase({ phone: '+237677000888', confirm: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ERASURE_PAYMENT_PENDING');
  });

  it('never logs the phone number or the e-mail address in full', () => {
    const text = lines.join('\n');
    expect(text).toContain('personal data exported');
    expect(text).toContain('personal data erased');
    expect(text).not.toContain('677000777');
    expect(text).not.toContain('677 00 07 77');
    expect(text).not.toContain('ada.mbarga');
    expect(text).not.toContain('ADA.MBARGA');
  });
});
