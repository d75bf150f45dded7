// engines: postgres and pglite — the append-only trigger and its prune setting (SET LOCAL)
import type { AuditResponse } from '@qless/contract';
import type { RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { signedIn, TEST_PASSWORD } from '../support/auth-helpers.js';
import { createFixture, type Fixture, initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';

const DAY = 86_400_000;
const CUSTOMER_PHONE = '+237677123456';

/**
 * The audit log (issue 21 item 5, decision 032): who among staff, admins and operators did
 * what, when and from where; readable by operators and, for their branches, by admins;
 * never changed through the app (a trigger refuses it), pruned past its retention.
 */
describe('audit log', () => {
  /** Every route as declared (the audit hook is added to the same options afterwards). */
  const declared: RouteOptions[] = [];
  const s = useStack({
    // One proxy in front: req.ip is the address the proxy saw (the rightmost hop).
    env: { ...NO_LIMITS, TRUST_PROXY: '1', LOGIN_FAILURES_PER_IP: '100000' },
    onRoute: (route) => {
      declared.push(route);
    },
  });
  let b: Fixture;
  let branchId: string;
  let admin: { id: string; headers: { authorization: string }; token: string };
  let adminB: { id: string; headers: { authorization: string } };
  let staffB: { id: string; headers: { authorization: string } };
  let manager: { id: string; headers: { authorization: string } };
  let operator: { id: string; headers: { authorization: string } };

  /** Lets the answered requests' hooks run, then writes what they queued. */
  const settle = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await s.app.audit.recorder.flush();
  };
  const rows = () =>
    s.database.db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();
  /** Each request of a test names itself by its user agent; its entry is found by it. */
  let n = 0;
  const tagged = (headers: Record<string, string> = {}) => {
    n += 1;
    return { ...headers, 'user-agent': `audit-test/${n}` };
  };
  const rowOf = async (userAgent = `audit-test/${n}`) => {
    await settle();
    const entries = await s.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('user_agent', '=', userAgent)
      .execute();
    expect(entries.length).toBe(1);
    return entries[0];
  };
  const read = async (url: string, headers: Record<string, string>) => {
    const res = await s.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    return { status: res.statusCode, body: res.json<AuditResponse>() };
  };

  beforeAll(async () => {
    const db = s.database.db;
    b = await createFixture(s.database, s.clock.now(), '-b');
    const branch = await db
      .insertInto('organizations')
      .values({
        name: 'Guichet Unique',
        branch_name: 'Akwa',
        parent_id: s.fx.orgId,
        email: 'akwa@example.cm',
        time_zone: 'Africa/Douala',
        start_time: '07:00',
        end_time: '18:00',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    branchId = branch.id;
    admin = await signedIn(s.app, db, {
      email: 'admin@a.cm',
      role: 'org_admin',
      organizationId: s.fx.orgId,
    });
    adminB = await signedIn(s.app, db, {
      email: 'admin@b.cm',
      role: 'org_admin',
      organizationId: b.orgId,
    });
    staffB = await signedIn(s.app, db, {
      email: 'staff@b.cm',
      role: 'staff',
      organizationId: b.orgId,
    });
    manager = await signedIn(s.app, db, {
      email: 'manager@akwa.cm',
      role: 'branch_manager',
      organizationId: branchId,
    });
    operator = await signedIn(s.app, db, { email: 'ops@qless.cm', role: 'operator' });
    await settle();
  });

  it('hooks every writing route and every route marked audit: true, and no other', async () => {
    const hooked = (route: RouteOptions) =>
      [route.onResponse ?? []].flat().some((hook) => hook.name === 'recordAudit');
    const methods = (route: RouteOptions) => [route.method].flat();
    const writes = (route: RouteOptions) =>
      methods(route).some((m) => ['POST', 'PATCH', 'PUT', 'DELETE'].includes(m));
    expect(declared.filter(writes).length).toBeGreaterThan(50);
    const wrong = declared
      .filter((r) => hooked(r) !== (writes(r) || r.config?.audit === true))
      .map((r) => `${methods(r).join(',')} ${r.url}`);
    expect(wrong).toEqual([]);
    // The exports of personal data are GETs: hooked by their mark.
    expect(declared.filter((r) => !writes(r) && hooked(r)).length).toBeGreaterThan(0);
  });

  it('records an admin changing a service: who, what, when, from where', async () => {
    s.clock.advance(60_000);
    const res = await s.app.inject({
      method: 'PATCH',
      url: `/api/v1/organization/services/${s.fx.serviceId}`,
      headers: {
        ...admin.headers,
        'x-forwarded-for': '203.0.113.7',
        'user-agent': 'Mozilla/5.0 (Linux; Android 10) Chrome/120',
      },
      payload: { service_name: 'Passports' },
      remoteAddress: '10.0.0.2',
    });
    expect(res.statusCode).toBe(200);
    const row = await rowOf('Mozilla/5.0 (Linux; Android 10) Chrome/120');
    expect(row).toMatchObject({
      actor_user_id: admin.id,
      actor_role: 'org_admin',
      actor_email: 'admin@a.cm',
      organization_id: s.fx.orgId,
      action: 'PATCH /organization/services/:service_id',
      target: { service_id: s.fx.serviceId },
      outcome: 200,
      client_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (Linux; Android 10) Chrome/120',
    });
    expect(row?.at.toISOString()).toBe(s.clock.now().toISOString());
  });

  it('records refusals: staff, and an admin of another organization (403)', async () => {
    for (const who of [staffB, adminB]) {
      const res = await s.app.inject({
        method: 'PATCH',
        url: `/api/v1/organization/services/${s.fx.serviceId}`,
        headers: tagged(who.headers),
        payload: { service_name: 'Mine now' },
      });
      expect(res.statusCode).toBe(403);
      const row = await rowOf();
      expect(row).toMatchObject({
        actor_user_id: who.id,
        organization_id: b.orgId,
        action: 'PATCH /organization/services/:service_id',
        target: { service_id: s.fx.serviceId },
        outcome: 403,
      });
    }
  });

  it("records an operator's console action", async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v1/platform/organizations/${b.orgId}/unverify`,
      headers: tagged(operator.headers),
    });
    expect(res.statusCode).toBe(200);
    expect(await rowOf()).toMatchObject({
      actor_user_id: operator.id,
      actor_role: 'operator',
      organization_id: null,
      action: 'POST /platform/organizations/:id/unverify',
      target: { id: b.orgId },
      outcome: 200,
    });
    await s.app.inject({
      method: 'POST',
      url: `/api/v1/platform/organizations/${b.orgId}/verify`,
      headers: operator.headers,
    });
  });

  it("keeps no customer's booking, and no unknown route", async () => {
    await settle();
    const before = (await rows()).length;
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx, { phone_number: CUSTOMER_PHONE }),
    });
    expect(res.statusCode).toBe(201);
    // Nor an anonymous call of an audited export (it names nobody).
    const anonymous = await s.app.inject({
      method: 'GET',
      url: '/api/v1/organization/insight/export.csv?kind=visits&from=2026-03-01&to=2026-03-04',
    });
    expect(anonymous.statusCode).toBe(401);
    const unknown = await s.app.inject({
      method: 'POST',
      url: '/api/v1/organization/nothing-here',
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
    await settle();
    expect((await rows()).length).toBe(before);
  });

  it('records sign-ins, failed ones as the account tried (never what was typed)', async () => {
    const ok = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: tagged(),
      payload: { email: 'admin@b.cm', password: TEST_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    expect(await rowOf()).toMatchObject({
      actor_user_id: adminB.id,
      action: 'POST /auth/login',
      organization_id: b.orgId,
      outcome: 200,
    });
    const wrong = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: tagged(),
      payload: { email: 'Admin@B.cm', password: 'not-the-password-1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await rowOf()).toMatchObject({
      actor_user_id: adminB.id,
      outcome: 401,
    });
    const nobody = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: tagged(),
      payload: { email: 'nobody@nowhere.cm', password: 'guess-guess-guess' },
    });
    expect(nobody.statusCode).toBe(401);
    expect(await rowOf()).toMatchObject({
      actor_user_id: null,
      actor_email: null,
      action: 'POST /auth/login',
      outcome: 401,
    });
  });

  it('records an export of personal data (a GET marked audit: true)', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: '/api/v1/organization/insight/export.csv?kind=visits&from=2026-03-01&to=2026-03-04',
      headers: tagged(admin.headers),
    });
    expect(res.statusCode).toBe(200);
    expect(await rowOf()).toMatchObject({
      actor_user_id: admin.id,
      action: 'GET /organization/insight/export.csv',
      organization_id: s.fx.orgId,
      outcome: 200,
    });
  });

  it('keeps a row whose path carried a NUL (jsonb refuses one), and refuses one in a filter', async () => {
    const res = await s.app.inject({
      method: 'DELETE',
      url: '/api/v1/organization/closures/2026-03-2%00',
      headers: tagged(admin.headers),
    });
    expect(res.statusCode).toBeLessThan(500);
    expect(await rowOf()).toMatchObject({
      action: 'DELETE /organization/closures/:date',
      target: { date: '2026-03-2' },
    });
    expect((await read('/platform/audit?actor=a%00b', operator.headers)).status).toBe(400);
  });

  it('holds no password, token or phone number after actions that carry them', async () => {
    const db = s.database.db;
    const who = await signedIn(s.app, db, {
      email: 'changer@a.cm',
      role: 'staff',
      organizationId: s.fx.orgId,
    });
    const change = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      headers: who.headers,
      payload: { current_password: TEST_PASSWORD, new_password: 'a brand new passphrase 42' },
    });
    expect(change.statusCode).toBe(200);
    const out = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: who.headers,
    });
    expect(out.statusCode).toBe(200);
    await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/invitations/accept',
      payload: { token: 'A'.repeat(43), password: 'another passphrase 99' },
    });
    await settle();
    const all = JSON.stringify(await rows());
    for (const secret of [
      TEST_PASSWORD,
      'a brand new passphrase 42',
      'another passphrase 99',
      'not-the-password-1',
      'A'.repeat(43),
      who.token,
      admin.token,
      CUSTOMER_PHONE,
      '677123456',
      'nobody@nowhere.cm',
    ]) {
      expect(all).not.toContain(secret);
    }
    const actions = (await rows()).filter((r) => r.actor_user_id === who.id).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['POST /auth/login', 'POST /auth/password', 'POST /auth/logout']),
    );
  });

  it('is read by operators (everything), admins (their branches), managers (their branch)', async () => {
    // The branch manager acts on their branch; the operator reads it by actor and by page.
    const closure = await s.app.inject({
      method: 'POST',
      url: '/api/v1/organization/closures',
      headers: manager.headers,
      payload: { date: '2026-03-20', reason: 'Inventory' },
    });
    expect(closure.statusCode).toBeLessThan(500);
    await settle();
    const total = (await rows()).length;

    const all = await read('/platform/audit?limit=100', operator.headers);
    expect(all.status).toBe(200);
    expect(all.body.entries.length).toBe(Math.min(total, 100));
    const times = all.body.entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);

    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: AuditResponse } = await read(
        `/platform/audit?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        operator.headers,
      );
      pages.push(...page.body.entries.map((e) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(pages.length).toBe(total);
    expect(new Set(pages).size).toBe(total);

    const byManager = await read('/platform/audit?actor=manager%40akwa', operator.headers);
    expect(byManager.body.entries.length).toBeGreaterThan(0);
    expect(byManager.body.entries.every((e) => e.actor_user_id === manager.id)).toBe(true);
    const patches = await read('/platform/audit?action=PATCH%20/organization/*', operator.headers);
    expect(patches.body.entries.length).toBe(3);
    const logins = await read('/platform/audit?action=POST%20/auth/login', operator.headers);
    expect(logins.body.entries.length).toBeGreaterThan(5);
    expect(logins.body.entries.every((e) => e.action === 'POST /auth/login')).toBe(true);
    const exact = await read('/platform/audit?action=PATCH%20/organization/', operator.headers);
    expect(exact.body.entries).toEqual([]);
    const today = await read('/platform/audit?from=2026-03-04&to=2026-03-04', operator.headers);
    expect(today.body.entries.length).toBe(total);
    const tomorrow = await read('/platform/audit?from=2026-03-05', operator.headers);
    expect(tomorrow.body.entries).toEqual([]);

    const ofAdmin = await read('/organization/audit?limit=100', admin.headers);
    expect(ofAdmin.status).toBe(200);
    const orgs = new Set(ofAdmin.body.entries.map((e) => e.organization_id));
    expect([...orgs].sort()).toEqual([s.fx.orgId, branchId].sort());
    expect(
      ofAdmin.body.entries.find((e) => e.organization_id === branchId)?.organization_name,
    ).toBe('Guichet Unique (Akwa)');

    const ofManager = await read('/organization/audit', manager.headers);
    expect(ofManager.status).toBe(200);
    expect(ofManager.body.entries.length).toBeGreaterThan(0);
    expect(ofManager.body.entries.every((e) => e.organization_id === branchId)).toBe(true);
    const named = await read(`/organization/audit?organization_id=${s.fx.orgId}`, manager.headers);
    expect(named.status).toBe(403);

    const ofOtherAdmin = await read('/organization/audit', adminB.headers);
    expect(ofOtherAdmin.body.entries.every((e) => e.organization_id === b.orgId)).toBe(true);

    expect((await read('/organization/audit', staffB.headers)).status).toBe(403);
    expect((await read('/platform/audit', admin.headers)).status).toBe(403);
    expect((await read('/platform/audit?cursor=bm9wZQ', operator.headers)).status).toBe(400);
  });

  it('refuses UPDATE, DELETE and TRUNCATE through SQL (the trigger)', async () => {
    const db = s.database.db;
    await settle();
    const count = (await rows()).length;
    await expect(sql`update audit_log set outcome = 200`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    // The prune's setting lets only older rows go, never these.
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`select set_config('qless.audit_prune_before', '2000-01-01T00:00:00Z', true)`.execute(
          trx,
        );
        await sql`delete from audit_log`.execute(trx);
      }),
    ).rejects.toThrow(/append-only/);
    expect((await rows()).length).toBe(count);
  });

  it('prunes only entries older than the retention', async () => {
    const db = s.database.db;
    await settle();
    const now = s.clock.now().getTime();
    const old = (days: number) => ({
      at: new Date(now - days * DAY),
      action: `TEST old ${days}`,
      outcome: 200,
    });
    await db
      .insertInto('audit_log')
      .values([old(366), old(400), old(364)])
      .execute();
    const before = (await rows()).length;
    expect(await s.app.audit.prune()).toBe(2);
    const left = await rows();
    expect(left.length).toBe(before - 2);
    expect(left.map((r) => r.action)).toContain('TEST old 364');
    expect(left.map((r) => r.action)).not.toContain('TEST old 366');
  });
});

describe('audit log setting', () => {
  it('AUDIT_RETENTION_DAYS is at least 30', async () => {
    const { testConfig } = await import('../support/test-app.js');
    expect(testConfig().audit.retentionDays).toBe(365);
    expect(() => testConfig({ AUDIT_RETENTION_DAYS: '29' })).toThrow(/AUDIT_RETENTION_DAYS/);
    expect(testConfig({ AUDIT_RETENTION_DAYS: '30' }).audit.retentionDays).toBe(30);
  });
});
