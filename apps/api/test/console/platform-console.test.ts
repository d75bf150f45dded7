import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { signedIn } from '../support/auth-helpers.js';
import { linkToken } from '../support/smtp-capture.js';
import { PINNED_NOW } from '../support/test-app.js';

const ORIGIN = 'http://qless.test';

/** Every route of the console: all of them are for operators only. */
const CONSOLE_ROUTES = [
  ['GET', '/api/v1/platform/contact-requests'],
  ['POST', '/api/v1/platform/contact-requests/00000000-0000-4000-8000-000000000000/approve'],
  ['POST', '/api/v1/platform/contact-requests/00000000-0000-4000-8000-000000000000/reject'],
  ['GET', '/api/v1/platform/organizations'],
  ['POST', '/api/v1/platform/organizations/00000000-0000-4000-8000-000000000000/verify'],
  ['POST', '/api/v1/platform/organizations/00000000-0000-4000-8000-000000000000/unverify'],
  ['GET', '/api/v1/platform/outbox'],
  ['GET', '/api/v1/platform/payments/review'],
] as const;

describe('operator console', () => {
  const s = useStack();
  let orgId: string;
  let serviceId: string;
  let slotId: string;
  let operator: { id: string; headers: { authorization: string } };
  let admin: { headers: { authorization: string } };
  let staff: { headers: { authorization: string } };

  beforeAll(async () => {
    ({ orgId, serviceId } = s.fx);
    slotId = s.fx.slotIds[0] as string;
    operator = await signedIn(s.app, s.database.db, { email: 'ops@qless.cm', role: 'operator' });
    admin = await signedIn(s.app, s.database.db, {
      email: 'admin@guichet.cm',
      role: 'org_admin',
      organizationId: orgId,
    });
    staff = await signedIn(s.app, s.database.db, {
      email: 'staff@guichet.cm',
      role: 'staff',
      organizationId: orgId,
    });
  });

  const contact = async (user_name: string, user_email: string) => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: { user_name, user_email, message: 'Please onboard us' },
      remoteAddress: `10.2.0.${Math.floor(Math.random() * 200)}`,
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const asOperator = (method: 'GET' | 'POST', url: string, payload?: object) =>
    s.app.inject({
      method,
      url,
      headers: operator.headers,
      ...(payload ? { payload } : {}),
    });

  it.each(CONSOLE_ROUTES)(
    '%s %s: 401 with no session, 403 for an admin and for staff',
    async (method, url) => {
      const payload = method === 'POST' ? {} : undefined;
      const none = await s.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(none.statusCode).toBe(401);
      for (const who of [admin, staff]) {
        const res = await s.app.inject({
          method,
          url,
          headers: who.headers,
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('FORBIDDEN');
      }
    },
  );

  it('approving a request creates the unverified organization, its first admin, the link and the mail, once', async () => {
    const id = await contact('Clinique de la Paix', 'Direction@Clinique-Paix.cm');
    const list = await asOperator('GET', '/api/v1/platform/contact-requests?status=new');
    expect(list.statusCode).toBe(200);
    const listed = list
      .json()
      .contact_requests.find((r: { id: string; created_at: string }) => r.id === id);
    // Received "now" on the server's clock, like everything else it stamps.
    expect(listed?.created_at).toBe(new Date(PINNED_NOW).toISOString());

    const res = await asOperator('POST', `/api/v1/platform/contact-requests/${id}/approve`, {
      city: 'Yaoundé',
      category: 'hospital',
      admin_name: 'Dr Mballa',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.contact_request).toMatchObject({ id, status: 'approved' });
    expect(body.admin.email).toBe('direction@clinique-paix.cm');
    const orgIdNew = body.organization.organization_id;
    expect(body.contact_request.organization_id).toBe(orgIdNew);

    const org = await s.database.db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', orgIdNew)
      .executeTakeFirstOrThrow();
    expect(org).toMatchObject({
      name: 'Clinique de la Paix',
      email: 'direction@clinique-paix.cm',
      city: 'Yaoundé',
      category: 'hospital',
      time_zone: 'Africa/Douala',
      start_time: '08:00:00',
      end_time: '17:00:00',
      verified_at: null,
      contact_request_id: id,
    });
    const user = await s.database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'direction@clinique-paix.cm')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      role: 'org_admin',
      organization_id: orgIdNew,
      password_hash: null,
      name: 'Dr Mballa',
    });
    const token = await s.database.db
      .selectFrom('user_tokens')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(token.purpose).toBe('invite');
    expect(token.expires_at.getTime() - new Date(PINNED_NOW).getTime()).toBe(72 * 3_600_000);

    // With no SMTP server, the invitation waits in the outbox, readable by operators.
    const outbox = await asOperator('GET', '/api/v1/platform/outbox');
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json().smtp_configured).toBe(false);
    const mail = outbox
      .json()
      .messages.find((m: { to: string }) => m.to === 'direction@clinique-paix.cm');
    expect(mail).toMatchObject({ kind: 'invitation', sent_at: null, attempts: 0 });
    const link = linkToken(mail.text_body, 'invite');
    const info = await s.app.inject({ method: 'GET', url: `/api/v1/auth/invitations/${link}` });
    expect(info.json()).toEqual({
      valid: true,
      reason: null,
      email: 'direction@clinique-paix.cm',
      organization_name: 'Clinique de la Paix',
    });

    // A mail already sent, or a password reset sent, shows its link without the token.
    const secret = 'T'.repeat(43);
    const mailText = (path: string) => `Open https://qless.test/#/${path}/${secret} now.`;
    await s.database.db
      .insertInto('outbox')
      .values(
        [
          ['reset-sent@x.cm', 'password_reset', 'reset-password', new Date(PINNED_NOW)],
          ['invite-sent@x.cm', 'invitation', 'invite', new Date(PINNED_NOW)],
        ].map(([to, kind, path, sent]) => ({
          to_address: to as string,
          subject: 'Link',
          text_body: mailText(path as string),
          created_at: new Date(PINNED_NOW),
          html_body: '<p>link</p>',
          kind: kind as string,
          sent_at: sent as Date,
        })),
      )
      .execute();
    const shown = (await asOperator('GET', '/api/v1/platform/outbox')).json().messages;
    const of = (to: string) => shown.find((m: { to: string }) => m.to === to).text_body;
    expect(of('reset-sent@x.cm')).toBe('Open https://qless.test/#/reset-password/… now.');
    expect(of('invite-sent@x.cm')).toBe('Open https://qless.test/#/invite/… now.');
    expect(JSON.stringify(shown)).not.toContain(secret);

    const twice = await asOperator('POST', `/api/v1/platform/contact-requests/${id}/approve`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('ALREADY_HANDLED');
    const rejectAfter = await asOperator('POST', `/api/v1/platform/contact-requests/${id}/reject`);
    expect(rejectAfter.statusCode).toBe(409);
    const orgs = await s.database.db
      .selectFrom('organizations')
      .select('id')
      .where('contact_request_id', '=', id)
      .execute();
    expect(orgs).toHaveLength(1);
  });

  it('two operators approving one request at the same moment: one organization, one 409', async () => {
    const id = await contact('Banque Atlantique Akwa', 'akwa@banque.cm');
    const both = await Promise.all([
      asOperator('POST', `/api/v1/platform/contact-requests/${id}/approve`, {}),
      asOperator('POST', `/api/v1/platform/contact-requests/${id}/approve`, {}),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const users = await s.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'akwa@banque.cm')
      .execute();
    expect(users).toHaveLength(1);
  });

  it('an e-mail already in use is a 409 EMAIL_TAKEN and leaves the request new, with nothing created', async () => {
    const id = await contact('Guichet bis', 'admin@guichet.cm');
    const res = await asOperator('POST', `/api/v1/platform/contact-requests/${id}/approve`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('EMAIL_TAKEN');
    const row = await s.database.db
      .selectFrom('contact_requests')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('new');
    // Another admin e-mail than the request's works.
    const other = await asOperator('POST', `/api/v1/platform/contact-requests/${id}/approve`, {
      admin_email: 'direction@guichet-bis.cm',
      name: 'Guichet Bis',
    });
    expect(other.statusCode).toBe(201);
    expect(other.json().organization.name).toBe('Guichet Bis');
  });

  it('refuses an unknown request (404), a bad id (400) and a bad time zone (400)', async () => {
    const unknown = await asOperator(
      'POST',
      '/api/v1/platform/contact-requests/00000000-0000-4000-8000-000000000000/approve',
      {},
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('CONTACT_REQUEST_NOT_FOUND');
    const badId = await asOperator('POST', '/api/v1/platform/contact-requests/nope/approve', {});
    expect(badId.json().code).toBe('INVALID_ID');
    const id = await contact('Mairie de Bafoussam', 'mairie@bafoussam.cm');
    const tz = await asOperator('POST', `/api/v1/platform/contact-requests/${id}/approve`, {
      time_zone: 'Mars/Olympus',
    });
    expect(tz.statusCode).toBe(400);
    expect(tz.json().code).toBe('INVALID_TIME_ZONE');
  });

  it('rejects a request once; the list filters by status and pages', async () => {
    const id = await contact('Spam Org', 'spam@example.cm');
    const res = await asOperator('POST', `/api/v1/platform/contact-requests/${id}/reject`);
    expect(res.statusCode).toBe(200);
    expect(res.json().contact_request).toMatchObject({
      id,
      status: 'rejected',
      organization_id: null,
    });
    expect(
      (await asOperator('POST', `/api/v1/platform/contact-requests/${id}/reject`)).statusCode,
    ).toBe(409);
    const rejected = await asOperator('GET', '/api/v1/platform/contact-requests?status=rejected');
    expect(rejected.json().contact_requests.map((r: { id: string }) => r.id)).toEqual([id]);
    const page = await asOperator('GET', '/api/v1/platform/contact-requests?page=1&page_size=2');
    expect(page.json().contact_requests).toHaveLength(2);
    expect(page.json().total).toBeGreaterThan(2);
    const bad = await asOperator('GET', '/api/v1/platform/contact-requests?status=maybe');
    expect(bad.statusCode).toBe(400);
  });

  it('lists organizations with verified, listed and missing fields; verify and unverify', async () => {
    const created = await s.database.db
      .insertInto('organizations')
      .values({
        name: 'Incomplete',
        email: 'incomplete@example.cm',
        time_zone: 'Africa/Douala',
        start_time: '08:00',
        end_time: '17:00',
        verified_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const find = async () =>
      (await asOperator('GET', '/api/v1/platform/organizations'))
        .json()
        .organizations.find((o: { organization_id: string }) => o.organization_id === created.id);
    expect(await find()).toMatchObject({
      verified: false,
      listed: false,
      missing_fields: ['location', 'city', 'category'],
    });
    const verified = await asOperator(
      'POST',
      `/api/v1/platform/organizations/${created.id}/verify`,
    );
    expect(verified.statusCode).toBe(200);
    expect(verified.json().organization).toMatchObject({ verified: true, listed: false });
    expect(verified.json().organization.verified_at).toBe(new Date(PINNED_NOW).toISOString());
    await s.database.db
      .updateTable('organizations')
      .set({ location: 'Rue 1', city: 'Douala', category: 'bank' })
      .where('id', '=', created.id)
      .execute();
    expect(await find()).toMatchObject({ verified: true, listed: true, missing_fields: [] });
    const unverified = await asOperator(
      'POST',
      `/api/v1/platform/organizations/${created.id}/unverify`,
    );
    expect(unverified.json().organization).toMatchObject({
      verified: false,
      listed: false,
      verified_at: null,
    });
    const missing = await asOperator(
      'POST',
      '/api/v1/platform/organizations/00000000-0000-4000-8000-000000000000/verify',
    );
    expect(missing.statusCode).toBe(404);
  });

  it('lists payments flagged for review, and only those', async () => {
    const booking = await s.database.db
      .insertInto('bookings')
      .values({
        organization_id: orgId,
        service_id: serviceId,
        slot_id: slotId,
        booking_date: '2026-03-05',
        status: 'expired',
        cus_name: 'Ngono',
        cus_email: 'ngono@example.cm',
        phone_number: '+237677123456',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const payment = (reference: string, review: boolean) => ({
      booking_id: booking.id,
      reference,
      request_fingerprint: 'x',
      provider: 'campay' as const,
      amount: 2,
      currency: 'XAF',
      phone_number: '+237677123456',
      status: 'FAILED' as const,
      settled_at: new Date(PINNED_NOW),
      needs_review: review,
      review_reason: review ? 'NOT_FOUND_AT_PROVIDER' : null,
    });
    await s.database.db
      .insertInto('payments')
      .values([payment('review-me-001', true), payment('fine-one-0001', false)])
      .execute();
    const res = await asOperator('GET', '/api/v1/platform/payments/review');
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(1);
    expect(res.json().payments).toEqual([
      {
        id: expect.any(String),
        reference: 'review-me-001',
        provider: 'campay',
        status: 'FAILED',
        review_reason: 'NOT_FOUND_AT_PROVIDER',
        amount: 2,
        currency: 'XAF',
        created_at: expect.any(String),
      },
    ]);
  });

  it('a cookie-authenticated approval from another site is refused (CSRF)', async () => {
    const id = await contact('Cookie Org', 'cookie@example.cm');
    const login = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'ops@qless.cm', password: 'a long test passphrase' },
      remoteAddress: '10.2.9.9',
    });
    const cookie = `qless_session=${login.json().token}`;
    const evil = await s.app.inject({
      method: 'POST',
      url: `/api/v1/platform/contact-requests/${id}/approve`,
      headers: { cookie, origin: 'https://evil.example' },
      payload: {},
    });
    expect(evil.statusCode).toBe(403);
    const ours = await s.app.inject({
      method: 'POST',
      url: `/api/v1/platform/contact-requests/${id}/approve`,
      headers: { cookie, origin: ORIGIN },
      payload: {},
    });
    expect(ours.statusCode).toBe(201);
  });
});
