import { staffInvitationResponseSchema } from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { signedIn } from '../support/auth-helpers.js';

/**
 * Issue 18, point 3: an invitation never says "sent" for what was only queued. Without
 * SMTP the answer says no e-mail will go out and hands the inviter the link (to copy, or
 * share by WhatsApp), and texts it to the person's phone through the SMS provider when a
 * number was given; with SMTP it says the e-mail is queued and keeps the link to the mail.
 */
const LINK = /^http:\/\/qless\.test\/#\/invite\/([A-Za-z0-9_-]{43})$/;

describe('invitations without SMTP: the inviter gets the link', () => {
  const s = useStack();
  let admin: { headers: { authorization: string } };
  let operator: { headers: { authorization: string } };

  beforeAll(async () => {
    admin = await signedIn(s.app, s.database.db, {
      email: 'admin@guichet.cm',
      role: 'org_admin',
      organizationId: s.fx.orgId,
    });
    operator = await signedIn(s.app, s.database.db, { email: 'ops@qless.cm', role: 'operator' });
  });

  const invite = (payload: Record<string, string>) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/organization/staff',
      headers: admin.headers,
      payload,
    });
  const outbox = (to: string) =>
    s.database.db
      .selectFrom('outbox')
      .select(['channel', 'kind', 'text_body'])
      .where('to_address', '=', to)
      .execute();

  it('says no e-mail goes out, gives a working link, and queues an SMS to the phone given', async () => {
    const res = await invite({ email: 'awa@guichet.cm', name: 'Awa', phone: '677 12 34 56' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { invitation, member } = staffInvitationResponseSchema.parse(res.json());
    expect(member).toMatchObject({ email: 'awa@guichet.cm', invitation_pending: true });
    expect(invitation).toMatchObject({ email: 'not_configured', sms: 'queued', valid_hours: 72 });
    const token = LINK.exec(invitation.link ?? '')?.[1] ?? '';
    expect(token).not.toBe('');
    const info = await s.app.inject({ method: 'GET', url: `/api/v1/auth/invitations/${token}` });
    expect(info.json()).toMatchObject({ valid: true, email: 'awa@guichet.cm' });
    // The SMS carries the same link, through the outbox's SMS channel.
    const [sms] = await outbox('+237677123456');
    expect(sms).toMatchObject({ channel: 'sms', kind: 'invitation' });
    expect(sms?.text_body).toContain(String(invitation.link));
  });

  it('queues no SMS without a phone, and refuses a number that is not a mobile (400)', async () => {
    const res = await invite({ email: 'ben@guichet.cm' });
    expect(res.statusCode).toBe(201);
    expect(res.json().invitation).toMatchObject({ email: 'not_configured', sms: null });
    for (const phone of ['12345', '2 22 33 44 55', 'six-sept-sept']) {
      const bad = await invite({ email: 'carl@guichet.cm', phone });
      expect(bad.statusCode, phone).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'INVALID_PHONE' });
    }
    expect(await outbox('carl@guichet.cm')).toEqual([]);
  });

  it('a resent invitation hands over a new link too', async () => {
    const made = staffInvitationResponseSchema.parse(
      (await invite({ email: 'dora@guichet.cm' })).json(),
    );
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v1/organization/staff/${made.member.id}/resend`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const again = staffInvitationResponseSchema.parse(res.json());
    expect(again.invitation.email).toBe('not_configured');
    expect(again.invitation.link).toMatch(LINK);
    expect(again.invitation.link).not.toBe(made.invitation.link);
  });

  it("the operator's approval hands over the first admin's link, and texts it when asked", async () => {
    const contact = await s.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: { user_name: 'Clinique Sainte-Anne', user_email: 'direction@sainte-anne.cm' },
      remoteAddress: '10.2.0.7',
    });
    expect(contact.statusCode).toBe(201);
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v1/platform/contact-requests/${contact.json().id}/approve`,
      headers: operator.headers,
      payload: { admin_phone: '+237 699 00 11 22' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().invitation).toMatchObject({ email: 'not_configured', sms: 'queued' });
    expect(res.json().invitation.link).toMatch(LINK);
    expect(await outbox('+237699001122')).toHaveLength(1);
  });
});

describe('invitations with SMTP: the e-mail is queued, the link stays in it', () => {
  const s = useStack({
    env: {
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_FROM: 'Qless <no-reply@qless.test>',
      OUTBOX_WORKER_ENABLED: 'false',
    },
  });

  it('says "queued", never hands the link over', async () => {
    const admin = await signedIn(s.app, s.database.db, {
      email: 'admin@guichet.cm',
      role: 'org_admin',
      organizationId: s.fx.orgId,
    });
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/organization/staff',
      headers: admin.headers,
      payload: { email: 'eve@guichet.cm' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().invitation).toEqual({
      email: 'queued',
      link: null,
      sms: null,
      valid_hours: 72,
    });
    expect(res.body).not.toContain('/#/invite/');
  });
});
