// engines: postgres and pglite — login limits are rate counters
import { beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/core/access/sessions.js';
import { useStack } from '../support/app-fixture.js';
import { bearer, createUser, signIn, TEST_PASSWORD } from '../support/auth-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

const ORIGIN = 'http://qless.test';

describe('sign-in and sessions', () => {
  const s = useStack({ env: { SESSION_IDLE_MINUTES: '30', SESSION_ABSOLUTE_HOURS: '2' } });
  let orgId: string;

  beforeAll(async () => {
    orgId = s.fx.orgId;
    await createUser(s.database.db, {
      email: 'admin@guichet.cm',
      role: 'org_admin',
      organizationId: orgId,
      name: 'Awa',
    });
    await createUser(s.database.db, { email: 'ops@qless.cm', role: 'operator' });
  });

  const login = (email: string, password: string, ip = '10.0.0.1') =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password },
      remoteAddress: ip,
    });

  it('signs in with the right password (any case of e-mail): token, expiry, user and a strict HttpOnly cookie', async () => {
    const res = await login('Admin@Guichet.CM', TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toEqual({
      id: expect.any(String),
      email: 'admin@guichet.cm',
      name: 'Awa',
      role: 'org_admin',
      organization_id: orgId,
    });
    // Idle limit (30 min) from the pinned now.
    expect(body.expires_at).toBe('2026-03-04T09:00:00.000Z');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`qless_session=${body.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api/);
    // Counted by the browser from now (Max-Age: the 2 h absolute limit of this config), never a date its clock could
    // already have passed (a phone days off, a test browser beside a pinned server).
    expect(cookie).toMatch(/Max-Age=7200(;|$)/);
    expect(cookie).not.toMatch(/Expires=/i);
    // The database keeps only the token's hash.
    const stored = await s.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(body.token);
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await login('admin@guichet.cm', 'not the password', '10.0.0.2');
    const unknown = await login('nobody@guichet.cm', 'not the password', '10.0.0.2');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses a malformed body with a field code, not a 500', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('INVALID_EMAIL');
  });

  it('reads the session by bearer token or by cookie; me names the organization', async () => {
    const token = await signIn(s.app, 'admin@guichet.cm');
    const byBearer = await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(token) });
    expect(byBearer.statusCode).toBe(200);
    expect(byBearer.json().organization).toMatchObject({
      id: orgId,
      name: expect.stringContaining('Guichet'),
    });
    const byCookie = await s.app.inject({
      url: '/api/v1/auth/me',
      cookies: { qless_session: token },
    });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.json().user.role).toBe('org_admin');
    const ops = await signIn(s.app, 'ops@qless.cm');
    const me = await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(ops) });
    expect(me.json()).toMatchObject({
      user: { role: 'operator', organization_id: null },
      organization: null,
    });
  });

  it('refuses no token, a garbage token, an alg=none JWT and a bad header', async () => {
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.`;
    for (const headers of [
      {},
      { authorization: 'Bearer garbage' },
      { authorization: `Bearer ${none}` },
      { authorization: 'Basic YWRtaW46YWRtaW4=' },
      { authorization: `Bearer ${'A'.repeat(43)}` },
    ]) {
      const res = await s.app.inject({ url: '/api/v1/auth/me', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('needs an allowed Origin on a cookie-authenticated write, not on a bearer one', async () => {
    const token = await signIn(s.app, 'admin@guichet.cm');
    const noOrigin = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      cookies: { qless_session: token },
    });
    expect(noOrigin.statusCode).toBe(403);
    expect(noOrigin.json().code).toBe('ORIGIN_NOT_ALLOWED');
    const evil = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      cookies: { qless_session: token },
      headers: { origin: 'https://evil.example' },
    });
    expect(evil.statusCode).toBe(403);
    const ours = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      cookies: { qless_session: token },
      headers: { origin: ORIGIN },
    });
    expect(ours.statusCode).toBe(200);
  });

  it('logout revokes the session at once', async () => {
    const token = await signIn(s.app, 'admin@guichet.cm');
    const out = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: bearer(token),
    });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/qless_session=;/);
    const after = await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
  });

  it('slides while used, ends when idle, and never outlives the absolute limit', async () => {
    s.clock.set(PINNED_NOW);
    const token = await signIn(s.app, 'admin@guichet.cm');
    // Used every 20 minutes (idle limit 30): alive until the absolute limit of 2 hours.
    for (let minutes = 20; minutes < 120; minutes += 20) {
      s.clock.set(new Date(Date.parse(PINNED_NOW) + minutes * 60_000));
      const res = await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(token) });
      expect(res.statusCode, `at +${minutes} min`).toBe(200);
    }
    s.clock.set(new Date(Date.parse(PINNED_NOW) + 121 * 60_000));
    expect(
      (await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(token) })).statusCode,
    ).toBe(401);

    s.clock.set(PINNED_NOW);
    const idle = await signIn(s.app, 'admin@guichet.cm');
    s.clock.set(new Date(Date.parse(PINNED_NOW) + 31 * 60_000));
    expect((await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(idle) })).statusCode).toBe(
      401,
    );
    s.clock.set(PINNED_NOW);
  });

  it('changing the password ends the other sessions and keeps this one', async () => {
    await createUser(s.database.db, {
      email: 'changer@guichet.cm',
      role: 'staff',
      organizationId: orgId,
    });
    const a = await signIn(s.app, 'changer@guichet.cm');
    const b = await signIn(s.app, 'changer@guichet.cm');
    const wrong = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      headers: bearer(a),
      payload: { current_password: 'nope', new_password: 'a brand new passphrase' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    const weak = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      headers: bearer(a),
      payload: { current_password: TEST_PASSWORD, new_password: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    const ok = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      headers: bearer(a),
      payload: { current_password: TEST_PASSWORD, new_password: 'a brand new passphrase' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(a) })).statusCode).toBe(
      200,
    );
    expect((await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(b) })).statusCode).toBe(
      401,
    );
    expect((await login('changer@guichet.cm', TEST_PASSWORD, '10.0.0.7')).statusCode).toBe(401);
    expect(
      (await login('changer@guichet.cm', 'a brand new passphrase', '10.0.0.7')).statusCode,
    ).toBe(200);
  });

  // Issue 18, point 12: this test changed with the behaviour. Five failures from anywhere
  // used to lock the account for everyone; they now lock out the address they came from.
  it('after 5 failures on one account from one address answers 429 there, even to the right password; elsewhere the owner signs in', async () => {
    await createUser(s.database.db, {
      email: 'target@guichet.cm',
      role: 'staff',
      organizationId: orgId,
    });
    for (let i = 0; i < 5; i += 1) {
      expect((await login('target@guichet.cm', `guess ${i}`, '10.1.0.1')).statusCode).toBe(401);
    }
    const blocked = await login('target@guichet.cm', TEST_PASSWORD, '10.1.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The account's owner, from another place, is not locked out by the guesser.
    expect((await login('target@guichet.cm', TEST_PASSWORD, '10.1.1.1')).statusCode).toBe(200);
    // The operator's account too: five wrong passwords from one place lock out that place.
    for (let i = 0; i < 5; i += 1) {
      expect((await login('ops@qless.cm', `guess ${i}`, '10.1.2.1')).statusCode).toBe(401);
    }
    expect((await login('ops@qless.cm', TEST_PASSWORD, '10.1.2.1')).statusCode).toBe(429);
    expect((await login('ops@qless.cm', TEST_PASSWORD, '10.1.3.1')).statusCode).toBe(200);
    // The window passes: the address may try again.
    s.clock.advance(16 * 60_000);
    expect((await login('target@guichet.cm', TEST_PASSWORD, '10.1.0.1')).statusCode).toBe(200);
    s.clock.set(PINNED_NOW);
  });

  it('after 20 failures from one address answers 429 for every account from it', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect((await login(`spray${i}@guichet.cm`, 'password1234', '10.2.0.1')).statusCode).toBe(
        401,
      );
    }
    expect((await login('admin@guichet.cm', TEST_PASSWORD, '10.2.0.1')).statusCode).toBe(429);
    expect((await login('admin@guichet.cm', TEST_PASSWORD, '10.2.0.2')).statusCode).toBe(200);
  });

  // Issue 18, point 12: this test changed with the behaviour. The burst now comes from one
  // address (the per-account-and-address limit is what counts it); from other addresses, the
  // owner's right password is let in.
  it('holds the account limit against guesses sent all at once from one address: the right password cannot slip in there', async () => {
    await createUser(s.database.db, {
      email: 'burst@guichet.cm',
      role: 'staff',
      organizationId: orgId,
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login('burst@guichet.cm', `guess ${i}`, '10.4.0.1')),
    );
    const statuses = answers.map((a) => a.statusCode);
    // At most the limit's worth of passwords is ever checked; everything else is 429.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
    expect((await login('burst@guichet.cm', TEST_PASSWORD, '10.4.0.1')).statusCode).toBe(429);
    expect((await login('burst@guichet.cm', TEST_PASSWORD, '10.4.99.1')).statusCode).toBe(200);
  });

  it('holds the address limit against a burst over many accounts', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        login(`burst${i}@guichet.cm`, 'password1234', '10.5.0.1'),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40);
  });

  it('does not count successful sign-ins as failures', async () => {
    await createUser(s.database.db, {
      email: 'often@guichet.cm',
      role: 'staff',
      organizationId: orgId,
    });
    for (let i = 0; i < 12; i += 1) {
      expect((await login('often@guichet.cm', TEST_PASSWORD, '10.6.0.1')).statusCode).toBe(200);
    }
    // Four failures, then the right password: still under the limit of five.
    for (let i = 0; i < 4; i += 1) {
      expect((await login('often@guichet.cm', `nope ${i}`, '10.6.0.1')).statusCode).toBe(401);
    }
    expect((await login('often@guichet.cm', TEST_PASSWORD, '10.6.0.1')).statusCode).toBe(200);
  });

  it('spends an open reset link when the password is changed', async () => {
    const { id } = await createUser(s.database.db, {
      email: 'linked@guichet.cm',
      role: 'staff',
      organizationId: orgId,
    });
    const link = newToken();
    const now = s.clock.now();
    await s.database.db
      .insertInto('user_tokens')
      .values({
        token_hash: link.hash,
        user_id: id,
        purpose: 'reset',
        created_at: now,
        expires_at: new Date(now.getTime() + 3_600_000),
        used_at: null,
      })
      .execute();
    const token = await signIn(s.app, 'linked@guichet.cm', TEST_PASSWORD, '10.7.0.1');
    const changed = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      headers: bearer(token),
      payload: { current_password: TEST_PASSWORD, new_password: 'the password I chose' },
    });
    expect(changed.statusCode).toBe(200);
    const reset = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm',
      payload: { token: link.token, password: 'the attacker chose this' },
      remoteAddress: '10.7.0.2',
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().code).toBe('TOKEN_USED');
  });

  it('a disabled account cannot sign in and its sessions stop working', async () => {
    const { id } = await createUser(s.database.db, {
      email: 'gone@guichet.cm',
      role: 'staff',
      organizationId: orgId,
    });
    const token = await signIn(s.app, 'gone@guichet.cm');
    await s.database.db.updateTable('users').set({ active: false }).where('id', '=', id).execute();
    expect(
      (await s.app.inject({ url: '/api/v1/auth/me', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect((await login('gone@guichet.cm', TEST_PASSWORD, '10.3.0.1')).statusCode).toBe(401);
  });
});

// Issue 18, point 12: a per-account ceiling over every address, which a first try from a
// place that has not failed still passes, so guessers cannot lock the owner out.
describe('the ceiling of failed sign-ins per account', () => {
  const s = useStack({ env: { LOGIN_FAILURES_PER_ACCOUNT_CEILING: '10' } });
  const login = (email: string, password: string, ip: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password },
      remoteAddress: ip,
    });

  it('past 10 failures from anywhere, a place that failed is refused even the right password; a new place has one try, and the owner gets in', async () => {
    await createUser(s.database.db, {
      email: 'admin@ceiling.cm',
      role: 'org_admin',
      organizationId: s.fx.orgId,
    });
    for (let place = 0; place < 5; place += 1) {
      for (let i = 0; i < 2; i += 1) {
        const res = await login('admin@ceiling.cm', `guess ${place}-${i}`, `10.8.${place}.1`);
        expect(res.statusCode).toBe(401);
      }
    }
    const failedPlace = await login('admin@ceiling.cm', TEST_PASSWORD, '10.8.0.1');
    expect(failedPlace.statusCode).toBe(429);
    expect(failedPlace.json().code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    // A new place: its first try is checked, its second is not.
    expect((await login('admin@ceiling.cm', 'one more guess', '10.8.50.1')).statusCode).toBe(401);
    expect((await login('admin@ceiling.cm', TEST_PASSWORD, '10.8.50.1')).statusCode).toBe(429);
    // The owner, from a place that has not failed, signs in.
    expect((await login('admin@ceiling.cm', TEST_PASSWORD, '10.8.60.1')).statusCode).toBe(200);
  });
});
