import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../src/core/access/users.repository.js';
import { useStack } from '../support/app-fixture.js';
import { bearer, createUser, signIn, TEST_PASSWORD } from '../support/auth-helpers.js';
import { linkToken, type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.js';
import { PINNED_NOW } from '../support/test-app.js';

const NEW_PASSWORD = 'a brand new passphrase';

describe('password reset', () => {
  let smtp: SmtpCapture;
  const logLines: string[] = [];
  beforeAll(async () => {
    smtp = await startSmtpCapture();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const s = useStack({
    // A getter: the capture's address exists once it listens, just before the stack opens.
    get env() {
      return {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Qless <no-reply@qless.test>',
        MAIL_WORKER_INTERVAL_MS: '100',
        PASSWORD_RESETS_PER_IP: '6',
        LOG_LEVEL: 'info',
      };
    },
    logStream: { write: (line) => logLines.push(line) },
  });

  const requestReset = (email: string, ip = '10.1.0.1') =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      payload: { email },
      remoteAddress: ip,
    });
  const confirm = (token: string, password = NEW_PASSWORD, ip = '10.1.0.1') =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm',
      payload: { token, password },
      remoteAddress: ip,
    });
  const me = (token: string) =>
    s.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(token) });
  const mailTo = (email: string) =>
    s.database.db.selectFrom('outbox').selectAll().where('to_address', '=', email).execute();

  it('sets a new password by the mailed link, once, and ends every session of the account', async () => {
    const email = 'awa@guichet.cm';
    await createUser(s.database.db, { email, role: 'org_admin', organizationId: s.fx.orgId });
    const phone = await signIn(s.app, email);
    const laptop = await signIn(s.app, email);

    const res = await requestReset('Awa@Guichet.cm');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true });
    const mail = await smtp.waitFor(email, /Reset your Qless password/);
    const token = linkToken(mail.text, 'reset-password');
    expect(mail.text).toContain(`http://qless.test/#/reset-password/${token}`);
    // Only the token's hash is stored.
    const stored = await s.database.db.selectFrom('user_tokens').select('token_hash').execute();
    expect(stored.map((t) => t.token_hash)).not.toContain(token);

    const done = await confirm(token);
    expect(done.statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(laptop)).statusCode).toBe(401);
    await expect(signIn(s.app, email, TEST_PASSWORD, '10.1.0.9')).rejects.toThrow(/401/);
    expect((await me(await signIn(s.app, email, NEW_PASSWORD))).statusCode).toBe(200);

    const again = await confirm(token, 'yet another passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('TOKEN_USED');
    // The link that failed changed nothing.
    expect((await me(await signIn(s.app, email, NEW_PASSWORD))).statusCode).toBe(200);
  });

  it('answers the same 202 for an unknown e-mail, an invited account and a real one; only the real one gets mail', async () => {
    await createUser(s.database.db, {
      email: 'real@guichet.cm',
      role: 'staff',
      organizationId: s.fx.orgId,
    });
    await insertUser(s.database.db, {
      email: 'invited@guichet.cm',
      role: 'staff',
      organizationId: s.fx.orgId,
      passwordHash: null,
      now: new Date(PINNED_NOW),
    });
    const answers = await Promise.all(
      ['nobody@guichet.cm', 'invited@guichet.cm', 'real@guichet.cm'].map((e) =>
        requestReset(e, '10.1.0.2'),
      ),
    );
    for (const a of answers) {
      expect(a.statusCode).toBe(202);
      expect(a.body).toBe(answers[0]?.body);
    }
    expect(await mailTo('nobody@guichet.cm')).toHaveLength(0);
    expect(await mailTo('invited@guichet.cm')).toHaveLength(0);
    expect(await mailTo('real@guichet.cm')).toHaveLength(1);
  });

  it('a link expires after one hour (pinned clock); unknown and malformed links are refused with their code', async () => {
    const email = 'late@guichet.cm';
    await createUser(s.database.db, { email, role: 'staff', organizationId: s.fx.orgId });
    expect((await requestReset(email, '10.1.0.3')).statusCode).toBe(202);
    const token = linkToken((await smtp.waitFor(email)).text, 'reset-password');
    s.clock.advance(3_600_000);
    try {
      const late = await confirm(token, NEW_PASSWORD, '10.1.0.3');
      expect(late.statusCode).toBe(400);
      expect(late.json().code).toBe('TOKEN_EXPIRED');
    } finally {
      s.clock.set(PINNED_NOW);
    }
    const unknown = await confirm('B'.repeat(43), NEW_PASSWORD, '10.1.0.3');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('INVALID_TOKEN');
    const malformed = await confirm('not-a-token', NEW_PASSWORD, '10.1.0.3');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('INVALID_TOKEN');
    const weak = await confirm(token, 'short', '10.1.0.3');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    // The old password still works: nothing was changed.
    await signIn(s.app, email);
  });

  it('a second request replaces the first link; two uses of one link racing: exactly one wins', async () => {
    const email = 'twice@guichet.cm';
    await createUser(s.database.db, { email, role: 'staff', organizationId: s.fx.orgId });
    await requestReset(email, '10.1.0.4');
    const first = linkToken((await smtp.waitFor(email)).text, 'reset-password');
    await requestReset(email, '10.1.0.4');
    await expect.poll(() => smtp.messages.filter((m) => m.rcpt.includes(email)).length).toBe(2);
    const second = linkToken(
      smtp.messages.filter((m) => m.rcpt.includes(email))[1]?.text ?? '',
      'reset-password',
    );
    expect(second).not.toBe(first);
    expect((await confirm(first, NEW_PASSWORD, '10.1.0.4')).json().code).toBe('INVALID_TOKEN');

    const results = await Promise.all([
      confirm(second, 'racer number one pw', '10.1.0.4'),
      confirm(second, 'racer number two pw', '10.1.0.4'),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)?.json().code).toBe('TOKEN_USED');
  });

  it('limits requests per e-mail (whether or not it has an account) and per client address', async () => {
    for (const email of ['limited@guichet.cm', 'ghost@guichet.cm']) {
      const codes = [];
      for (let i = 0; i < 4; i += 1)
        codes.push((await requestReset(email, `10.1.1.${i}`)).statusCode);
      expect(codes).toEqual([202, 202, 202, 429]);
    }
    const codes = [];
    for (let i = 0; i < 7; i += 1)
      codes.push((await requestReset(`p${i}@guichet.cm`, '10.1.2.1')).statusCode);
    expect(codes).toEqual([202, 202, 202, 202, 202, 202, 429]);
    // An hour later the window has passed.
    s.clock.advance(3_600_000);
    try {
      expect((await requestReset('p9@guichet.cm', '10.1.2.1')).statusCode).toBe(202);
    } finally {
      s.clock.set(PINNED_NOW);
    }
  });

  it('never writes a link token or a mail body into the log', async () => {
    const tokens = smtp.messages.map((m) => linkToken(m.text, 'reset-password'));
    expect(tokens.length).toBeGreaterThan(2);
    const log = logLines.join('');
    expect(log).toContain('password-reset');
    for (const t of tokens) expect(log).not.toContain(t);
    expect(log).not.toContain('Choose a new password');
  });
});
