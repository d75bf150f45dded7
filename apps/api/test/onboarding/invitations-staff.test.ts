import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { bearer, signedIn, signIn } from '../support/auth-helpers.js';
import { createFixture } from '../support/fixtures.js';
import { linkToken, type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.js';
import { PINNED_NOW } from '../support/test-app.js';

const PASSWORD = 'my own passphrase here';

describe('invitations and staff', () => {
  let smtp: SmtpCapture;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    Object.assign(env, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'no-reply@qless.test',
      MAIL_WORKER_INTERVAL_MS: '100',
    });
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const s = useStack({ env, fixture: false });
  let orgA: string;
  let orgB: string;
  let adminA: { id: string; headers: { authorization: string } };
  let adminB: { id: string; headers: { authorization: string } };
  let staffA: { id: string; headers: { authorization: string } };
  let operator: { id: string; headers: { authorization: string } };

  beforeAll(async () => {
    ({ orgId: orgA } = await createFixture(s.database, new Date(PINNED_NOW), 'a'));
    ({ orgId: orgB } = await createFixture(s.database, new Date(PINNED_NOW), 'b'));
    const db = s.database.db;
    adminA = await signedIn(s.app, db, {
      email: 'admin@a.cm',
      role: 'org_admin',
      organizationId: orgA,
    });
    adminB = await signedIn(s.app, db, {
      email: 'admin@b.cm',
      role: 'org_admin',
      organizationId: orgB,
    });
    staffA = await signedIn(s.app, db, {
      email: 'staff@a.cm',
      role: 'staff',
      organizationId: orgA,
    });
    operator = await signedIn(s.app, db, { email: 'ops@qless.cm', role: 'operator' });
  });

  const invite = (
    headers: { authorization: string },
    payload: { email: string; name?: string; role?: string; organization_id?: string },
  ) => s.app.inject({ method: 'POST', url: '/api/v1/organization/staff', headers, payload });
  const info = (token: string) =>
    s.app.inject({
      method: 'GET',
      url: `/api/v1/auth/invitations/${token}`,
      remoteAddress: '10.3.0.1',
    });
  const accept = (token: string, password = PASSWORD, name?: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/invitations/accept',
      payload: { token, password, ...(name ? { name } : {}) },
      remoteAddress: '10.3.0.1',
    });
  const mailedToken = async (email: string, nth = 0) => {
    await expect
      .poll(() => smtp.messages.filter((m) => m.rcpt.includes(email)).length, { timeout: 10_000 })
      .toBeGreaterThan(nth);
    const mail = smtp.messages.filter((m) => m.rcpt.includes(email))[nth];
    return linkToken(mail?.text ?? '', 'invite');
  };

  it('an admin invites staff: the mail carries a link that shows e-mail and organization, then signs in once', async () => {
    const res = await invite(adminA.headers, { email: 'Kofi@A.cm', name: 'Kofi', role: 'staff' });
    expect(res.statusCode).toBe(201);
    expect(res.json().member).toMatchObject({
      email: 'kofi@a.cm',
      name: 'Kofi',
      role: 'staff',
      active: true,
      invitation_pending: true,
    });
    const mail = await smtp.waitFor('kofi@a.cm');
    expect(mail.subject).toContain('Guichet Unique a');
    expect(mail.text).toContain('counter staff');
    const token = linkToken(mail.text, 'invite');

    const shown = await info(token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      valid: true,
      reason: null,
      email: 'kofi@a.cm',
      organization_name: 'Guichet Unique a',
    });

    const accepted = await accept(token, PASSWORD, 'Kofi Annan');
    expect(accepted.statusCode).toBe(200);
    const body = accepted.json();
    expect(body.user).toMatchObject({
      email: 'kofi@a.cm',
      name: 'Kofi Annan',
      role: 'staff',
      organization_id: orgA,
    });
    // The same cookie as POST /auth/login.
    const cookie = String(accepted.headers['set-cookie']);
    expect(cookie).toContain(`qless_session=${body.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api/);
    const me = await s.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { cookie: `qless_session=${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('kofi@a.cm');
    await signIn(s.app, 'kofi@a.cm', PASSWORD);

    const again = await accept(token, 'another one entirely');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('TOKEN_USED');
    expect((await info(token)).json()).toEqual({
      valid: false,
      reason: 'TOKEN_USED',
      email: null,
      organization_name: null,
    });
    const list = await s.app.inject({
      method: 'GET',
      url: '/api/v1/organization/staff',
      headers: adminA.headers,
    });
    const kofi = list.json().staff.find((s: { email: string }) => s.email === 'kofi@a.cm');
    expect(kofi.invitation_pending).toBe(false);
    expect(JSON.stringify(list.json())).not.toMatch(/argon2|password_hash/);
  });

  it('an invitation expires after 72 hours; re-sending replaces the old link', async () => {
    const res = await invite(adminA.headers, { email: 'late@a.cm' });
    const memberId = res.json().member.id;
    const first = await mailedToken('late@a.cm');
    // Just before 72 hours it still works; at 72 hours it has expired.
    s.clock.advance(72 * 3_600_000 - 1000);
    expect((await info(first)).json().valid).toBe(true);
    s.clock.advance(1000);
    try {
      expect((await info(first)).json().reason).toBe('TOKEN_EXPIRED');
      const late = await accept(first);
      expect(late.statusCode).toBe(400);
      expect(late.json().code).toBe('TOKEN_EXPIRED');
    } finally {
      // The admin's session has ended too by then: back to its day.
      s.clock.set(PINNED_NOW);
    }
    const resent = await s.app.inject({
      method: 'POST',
      url: `/api/v1/organization/staff/${memberId}/resend`,
      headers: adminA.headers,
    });
    expect(resent.statusCode).toBe(200);
    const second = await mailedToken('late@a.cm', 1);
    expect(second).not.toBe(first);
    expect((await info(first)).json().reason).toBe('INVALID_TOKEN');
    expect((await accept(second)).statusCode).toBe(200);
    // Accepted: re-sending is refused.
    const after = await s.app.inject({
      method: 'POST',
      url: `/api/v1/organization/staff/${memberId}/resend`,
      headers: adminA.headers,
    });
    expect(after.statusCode).toBe(409);
    expect(after.json().code).toBe('INVITATION_ACCEPTED');
  });

  it('an admin manages staff only: inviting, disabling, enabling or re-inviting an admin is 403; an operator may', async () => {
    const patch = (id: string, active: boolean, headers: { authorization: string }) =>
      s.app.inject({
        method: 'PATCH',
        url: `/api/v1/organization/staff/${id}`,
        headers,
        payload: { active },
      });
    const peer = await signedIn(s.app, s.database.db, {
      email: 'peer-admin@a.cm',
      role: 'org_admin',
      organizationId: orgA,
    });
    const asAdmin = await invite(adminA.headers, { email: 'new-admin@a.cm', role: 'org_admin' });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().code).toBe('FORBIDDEN');
    const disable = await patch(peer.id, false, adminA.headers);
    expect(disable.statusCode).toBe(403);
    expect(disable.json().code).toBe('FORBIDDEN');
    const row = () =>
      s.database.db
        .selectFrom('users')
        .select('active')
        .where('email', 'in', ['peer-admin@a.cm', 'new-admin@a.cm'])
        .execute();
    expect(await row()).toEqual([{ active: true }]);
    // An operator invites an admin; the admin may not re-send that invitation.
    const byOperator = await invite(operator.headers, {
      email: 'new-admin@a.cm',
      role: 'org_admin',
      organization_id: orgA,
    });
    expect(byOperator.statusCode).toBe(201);
    const resend = await s.app.inject({
      method: 'POST',
      url: `/api/v1/organization/staff/${byOperator.json().member.id}/resend`,
      headers: adminA.headers,
    });
    expect(resend.statusCode).toBe(403);
    expect((await patch(peer.id, false, operator.headers)).statusCode).toBe(200);
    expect((await patch(peer.id, true, operator.headers)).statusCode).toBe(200);
    // Staff accounts stay the admin's to manage.
    expect((await invite(adminA.headers, { email: 'helper@a.cm', role: 'staff' })).statusCode).toBe(
      201,
    );
  });

  it('refuses an e-mail already used (409 EMAIL_TAKEN), bad roles and weak passwords', async () => {
    const taken = await invite(adminA.headers, { email: 'ADMIN@b.cm' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_TAKEN');
    const operatorRole = await invite(adminA.headers, { email: 'x@a.cm', role: 'operator' });
    expect(operatorRole.statusCode).toBe(400);
    await invite(adminA.headers, { email: 'weak@a.cm' });
    const weak = await accept(await mailedToken('weak@a.cm'), 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    const unknown = await info('C'.repeat(43));
    expect(unknown.json()).toMatchObject({ valid: false, reason: 'INVALID_TOKEN' });
    const malformed = await info('short');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('INVALID_TOKEN');
  });

  it('an admin disables and enables an account: its sessions end; itself it cannot disable', async () => {
    const patch = (id: string, active: boolean, headers = adminA.headers) =>
      s.app.inject({
        method: 'PATCH',
        url: `/api/v1/organization/staff/${id}`,
        headers,
        payload: { active },
      });
    const staffToken = staffA.headers.authorization.slice('Bearer '.length);
    const off = await patch(staffA.id, false);
    expect(off.statusCode).toBe(200);
    expect(off.json().member.active).toBe(false);
    const me = await s.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: bearer(staffToken),
    });
    expect(me.statusCode).toBe(401);
    await expect(signIn(s.app, 'staff@a.cm', undefined, '10.3.1.1')).rejects.toThrow(/401/);
    const revoked = await s.database.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('user_id', '=', staffA.id)
      .execute();
    expect(revoked.every((s) => s.revoked_at !== null)).toBe(true);

    expect((await patch(staffA.id, true)).json().member.active).toBe(true);
    // Enabled again, it signs in anew; the old session stays ended.
    await signIn(s.app, 'staff@a.cm', undefined, '10.3.1.2');
    expect(
      (await s.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(staffToken) }))
        .statusCode,
    ).toBe(401);

    const self = await patch(adminA.id, false);
    expect(self.statusCode).toBe(409);
    expect(self.json().code).toBe('CANNOT_DISABLE_SELF');
  });

  it("another organization's account is a 404 for an admin, and any for an operator", async () => {
    for (const [method, url, payload] of [
      ['PATCH', `/api/v1/organization/staff/${staffA.id}`, { active: false }],
      ['POST', `/api/v1/organization/staff/${staffA.id}/resend`, undefined],
    ] as const) {
      const res = await s.app.inject({
        method,
        url,
        headers: adminB.headers,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('USER_NOT_FOUND');
    }
    // An operator's own account is nobody's staff.
    const op = await s.app.inject({
      method: 'PATCH',
      url: `/api/v1/organization/staff/${operator.id}`,
      headers: adminA.headers,
      payload: { active: false },
    });
    expect(op.statusCode).toBe(404);
    const listB = await s.app.inject({
      method: 'GET',
      url: `/api/v1/organization/staff?organization_id=${orgA}`,
      headers: adminB.headers,
    });
    expect(listB.statusCode).toBe(403);
    const listOps = await s.app.inject({
      method: 'GET',
      url: `/api/v1/organization/staff?organization_id=${orgA}`,
      headers: operator.headers,
    });
    expect(listOps.statusCode).toBe(200);
    expect(listOps.json().staff.map((s: { email: string }) => s.email)).toContain('staff@a.cm');
    const opInvite = await invite(operator.headers, {
      email: 'fromops@b.cm',
      organization_id: orgB,
    });
    expect(opInvite.statusCode).toBe(201);
    const opNoOrg = await invite(operator.headers, { email: 'noorg@b.cm' });
    expect(opNoOrg.statusCode).toBe(400);
  });

  it('staff may not manage accounts (403); nobody signed out may (401)', async () => {
    const routes = [
      ['GET', '/api/v1/organization/staff', undefined],
      ['POST', '/api/v1/organization/staff', { email: 'z@a.cm' }],
      ['PATCH', `/api/v1/organization/staff/${adminA.id}`, { active: false }],
      ['POST', `/api/v1/organization/staff/${adminA.id}/resend`, undefined],
    ] as const;
    for (const [method, url, payload] of routes) {
      const asStaff = await s.app.inject({
        method,
        url,
        headers: staffA.headers,
        ...(payload ? { payload } : {}),
      });
      // staffA was signed out above by being disabled: sign in anew.
      expect([401, 403]).toContain(asStaff.statusCode);
      const fresh = await signIn(s.app, 'staff@a.cm', undefined, '10.3.2.1');
      const res = await s.app.inject({
        method,
        url,
        headers: bearer(fresh),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode).toBe(403);
      const none = await s.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(none.statusCode).toBe(401);
    }
  });

  it('a disabled account cannot accept its invitation', async () => {
    const res = await invite(adminA.headers, { email: 'gone@a.cm' });
    const token = await mailedToken('gone@a.cm');
    await s.app.inject({
      method: 'PATCH',
      url: `/api/v1/organization/staff/${res.json().member.id}`,
      headers: adminA.headers,
      payload: { active: false },
    });
    expect((await info(token)).json()).toMatchObject({ valid: false, reason: 'INVALID_TOKEN' });
    expect((await accept(token)).json().code).toBe('INVALID_TOKEN');
  });
});
