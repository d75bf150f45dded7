import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { bearer, createUser, signedIn, signIn } from '../support/auth-helpers.js';
import { createFixture } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';

/**
 * Branches (issue 20, decision 024): an organization with several places; its admin runs
 * them all, a branch manager one; customers see the organization once and pick a branch.
 */
describe('branches', () => {
  const s = useStack({ env: { ...NO_LIMITS, LOGIN_FAILURES_PER_IP: '100000' } });
  let admin: { authorization: string };
  let operator: { authorization: string };
  let akwa: string;
  let bonanjo: string;
  let otherOrg: string;

  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => s.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    const db = s.database.db;
    admin = (
      await signedIn(s.app, db, {
        email: 'admin@bank.cm',
        role: 'org_admin',
        organizationId: s.fx.orgId,
      })
    ).headers;
    operator = (await signedIn(s.app, db, { email: 'ops@qless.cm', role: 'operator' })).headers;
    otherOrg = (await createFixture(s.database, s.clock.now(), '-other')).orgId;
    const made = [];
    for (const branch of [
      {
        branch_name: 'Akwa',
        city: 'Douala',
        location: 'Boulevard de la Liberté',
        latitude: 4.05,
        longitude: 9.7,
      },
      { branch_name: 'Bastos', city: 'Yaoundé', location: 'Rue 1.750, Bastos' },
    ]) {
      const res = await call('POST', '/organization/branches', admin, branch);
      expect(res.statusCode, res.body).toBe(201);
      made.push(res.json().branch.organization_id as string);
    }
    [akwa, bonanjo] = made as [string, string];
  });

  it('leaves a one-place organization as it was: listed once, one branch, no parent', async () => {
    const res = await call('GET', '/organizations', {});
    const other = res
      .json()
      .organizations.find((o: { organization_id: string }) => o.organization_id === otherOrg);
    expect(other).toMatchObject({ branch_count: 1, branch_name: null, parent_id: null });
    expect(other.branch_cities).toBeUndefined();
    const branches = await call('GET', `/organizations/${otherOrg}/branches`, {});
    expect(
      branches.json().branches.map((b: { organization_id: string }) => b.organization_id),
    ).toEqual([otherOrg]);
  });

  it('shows the organization once in the catalogue with its branches counted and found by city', async () => {
    const list = (await call('GET', '/organizations', {})).json().organizations as {
      organization_id: string;
      branch_count: number;
      branch_cities?: string[];
    }[];
    const ids = list.map((o) => o.organization_id);
    expect(ids).toContain(s.fx.orgId);
    expect(ids).not.toContain(akwa);
    expect(ids).not.toContain(bonanjo);
    const head = list.find((o) => o.organization_id === s.fx.orgId);
    expect(head?.branch_count).toBe(3);
    expect([...(head?.branch_cities ?? [])].sort()).toEqual(['Douala', 'Yaoundé']);
    // A search by a branch's city finds the organization (once).
    const found = (await call('GET', '/organizations?q=yaounde', {})).json();
    expect(found.organizations.map((o: { organization_id: string }) => o.organization_id)).toEqual([
      s.fx.orgId,
    ]);
    // A branch's own page still answers, and names its head.
    const one = await call('GET', `/organizations/${akwa}`, {});
    expect(one.statusCode).toBe(200);
    expect(one.json().organization).toMatchObject({ parent_id: s.fx.orgId, branch_name: 'Akwa' });
    // The picker: the same list from the head's id or a branch's.
    for (const id of [s.fx.orgId, bonanjo]) {
      const res = await call('GET', `/organizations/${id}/branches`, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().organization.organization_id).toBe(s.fx.orgId);
      expect(res.json().branches).toHaveLength(3);
      expect(
        res.json().branches.find((b: { organization_id: string }) => b.organization_id === akwa),
      ).toMatchObject({
        latitude: 4.05,
        longitude: 9.7,
        city: 'Douala',
      });
    }
    expect(
      (await call('GET', '/organizations/00000000-0000-4000-8000-000000000000/branches', {}))
        .statusCode,
    ).toBe(404);
    expect((await call('GET', '/organizations/nope/branches', {})).statusCode).toBe(400);
  });

  it('lets the organization admin act on any of its branches, each request saying which', async () => {
    const me = (await call('GET', '/auth/me', { ...admin, 'x-qless-branch': akwa })).json();
    expect(me.organization).toMatchObject({ id: akwa, branch_name: 'Akwa' });
    expect(me.branches.map((b: { id: string }) => b.id)).toEqual([s.fx.orgId, akwa, bonanjo]);
    const data = await call('GET', '/organization/data', { ...admin, 'x-qless-branch': bonanjo });
    expect(data.json().organizationData.organization_id ?? data.json().organizationData.id).toBe(
      bonanjo,
    );
    // Without the header: the account's own branch.
    const own = await call('GET', '/auth/me', admin);
    expect(own.json().organization.id).toBe(s.fx.orgId);
    // Another organization's branch, or a made-up value, is refused before anything runs.
    for (const header of [otherOrg, 'not-a-branch', '00000000-0000-4000-8000-000000000000']) {
      const res = await call('GET', '/organization/data', { ...admin, 'x-qless-branch': header });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('BRANCH_FORBIDDEN');
    }
    const listed = await call('GET', '/organization/branches', admin);
    expect(listed.json().can_manage).toBe(true);
    expect(
      listed
        .json()
        .branches.map((b: { organization_id: string; head: boolean }) => [
          b.organization_id,
          b.head,
        ]),
    ).toEqual([
      [s.fx.orgId, true],
      [akwa, false],
      [bonanjo, false],
    ]);
  });

  it('gives a branch manager their branch and nothing else', async () => {
    const invited = await call('POST', '/organization/staff', admin, {
      email: 'manager@bank.cm',
      role: 'branch_manager',
      organization_id: akwa,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const db = s.database.db;
    await createUser(db, {
      email: 'manager2@bank.cm',
      role: 'branch_manager',
      organizationId: akwa,
    });
    const manager = bearer(await signIn(s.app, 'manager2@bank.cm'));
    const listed = (await call('GET', '/organization/branches', manager)).json();
    expect(listed).toMatchObject({ can_manage: false });
    expect(listed.branches.map((b: { organization_id: string }) => b.organization_id)).toEqual([
      akwa,
    ]);
    expect((await call('GET', '/auth/me', manager)).json().branches).toHaveLength(1);
    // Their own branch: hours, services, the queue — all theirs.
    expect((await call('GET', '/organization/data', manager)).statusCode).toBe(200);
    expect((await call('GET', '/queue/today', manager)).statusCode).toBe(200);
    // A board (like a ticket, a turn and a message) says which branch: "… (Akwa)".
    const board = await call('POST', '/queue/boards', manager, { name: 'Hall' });
    expect(board.statusCode, board.body).toBe(201);
    const shown = await call('GET', `/board/${board.json().token}`, {});
    // The fixture's name is "Guichet Unique " (its suffix is empty).
    expect(shown.json().organization_name).toBe('Guichet Unique  (Akwa)');
    // Another branch, however named: refused.
    expect(
      (await call('GET', `/organization/data?organization_id=${bonanjo}`, manager)).statusCode,
    ).toBe(403);
    expect(
      (await call('GET', '/organization/data', { ...manager, 'x-qless-branch': s.fx.orgId }))
        .statusCode,
    ).toBe(403);
    expect((await call('GET', `/organization/${bonanjo}/bookings`, manager)).statusCode).toBe(403);
    // No new branches, no copies across branches, no admins.
    const add = await call('POST', '/organization/branches', manager, {
      branch_name: 'X',
      city: 'Kribi',
      location: 'Port',
    });
    expect(add.statusCode).toBe(403);
    const peer = await call('POST', '/organization/staff', manager, {
      email: 'peer@bank.cm',
      role: 'branch_manager',
    });
    expect(peer.statusCode).toBe(403);
    const clerk = await call('POST', '/organization/staff', manager, {
      email: 'clerk@bank.cm',
      role: 'staff',
    });
    expect(clerk.statusCode, clerk.body).toBe(201);
    expect(
      (
        await db
          .selectFrom('users')
          .select('organization_id')
          .where('email', '=', 'clerk@bank.cm')
          .executeTakeFirstOrThrow()
      ).organization_id,
    ).toBe(akwa);
    // Their branch's name and position are theirs to set.
    const renamed = await call('PATCH', '/organization/branch', manager, {
      branch_name: 'Akwa Nord',
      latitude: 4.06,
      longitude: 9.71,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().branch).toMatchObject({ branch_name: 'Akwa Nord', latitude: 4.06 });
    const back = await call('PATCH', '/organization/branch', manager, { branch_name: 'Akwa' });
    expect(back.statusCode).toBe(200);
    // The organization's name is the head's: a branch manager's profile keeps it, and the
    // head's rename reaches every branch (tickets and messages say "Bank (Akwa)").
    const hours = { start_time: '07:00', end_time: '18:00' };
    const renamed2 = await call('PATCH', '/organization/update/profile', manager, {
      ...hours,
      name: 'Other Bank',
      city: 'Douala',
    });
    expect(renamed2.statusCode, renamed2.body).toBe(200);
    const names = () =>
      db
        .selectFrom('organizations')
        .select(['id', 'name'])
        .where('id', 'in', [s.fx.orgId, akwa])
        .execute()
        .then((rows) => new Set(rows.map((r) => r.name)));
    expect([...(await names())]).toEqual(['Guichet Unique ']);
    const head = await call('PATCH', '/organization/update/profile', admin, {
      ...hours,
      name: 'Banque Unique',
    });
    expect(head.statusCode, head.body).toBe(200);
    expect([...(await names())]).toEqual(['Banque Unique']);
  });

  it('copies a service to several branches, once, with its slots', async () => {
    const res = await call('POST', `/organization/services/${s.fx.serviceId}/copy`, admin, {
      organization_ids: [akwa, bonanjo, akwa],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .copied.map((c: { organization_id: string }) => c.organization_id)
        .sort(),
    ).toEqual([akwa, bonanjo].sort());
    const services = (await call('GET', `/organizations/${akwa}/services`, {})).json().services;
    expect(services).toHaveLength(1);
    const slots = await call('GET', `/service/${services[0].service_id}/slots`, {});
    expect(slots.json().slots.length).toBeGreaterThan(10);
    const again = await call('POST', `/organization/services/${s.fx.serviceId}/copy`, admin, {
      organization_ids: [akwa],
    });
    expect(again.json()).toEqual({
      copied: [],
      skipped: [{ organization_id: akwa, reason: 'SAME_NAME' }],
    });
    const foreign = await call('POST', `/organization/services/${s.fx.serviceId}/copy`, admin, {
      organization_ids: [otherOrg],
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('BRANCH_NOT_FOUND');
    const none = await call('POST', `/organization/services/${s.fx.serviceId}/copy`, admin, {
      organization_ids: [s.fx.orgId],
    });
    expect(none.statusCode).toBe(400);
  });

  it('refuses bad branches with a field code', async () => {
    for (const body of [
      {},
      { branch_name: '', city: 'Douala', location: 'x' },
      { branch_name: 'x'.repeat(81), city: 'Douala', location: 'x' },
      { branch_name: 'A', city: 'Douala', location: 'x', latitude: 4 },
      { branch_name: 'A', city: 'Douala', location: 'x', latitude: 91, longitude: 9 },
      { branch_name: 'A', city: 'Douala', location: 'x', latitude: 'north', longitude: 9 },
    ]) {
      const res = await call('POST', '/organization/branches', admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Two branches of one organization never share a name.
    const twin = await call('POST', '/organization/branches', admin, {
      branch_name: 'akwa',
      city: 'Douala',
      location: 'Elsewhere',
    });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().code).toBe('INVALID_BRANCH');
    // An operator names the organization; a branch of it is enough.
    const byOperator = await call('POST', '/organization/branches', operator, {
      organization_id: akwa,
      branch_name: 'Kribi',
      city: 'Kribi',
      location: 'Port',
    });
    expect(byOperator.statusCode, byOperator.body).toBe(201);
    expect(byOperator.json().branch.head).toBe(false);
    const listed = await call(
      'GET',
      `/organization/branches?organization_id=${s.fx.orgId}`,
      operator,
    );
    expect(listed.json().branches).toHaveLength(4);
  });

  it('hides every branch when the organization is suspended', async () => {
    const db = s.database.db;
    await db
      .updateTable('organizations')
      .set({ active: false })
      .where('id', '=', s.fx.orgId)
      .execute();
    try {
      expect((await call('GET', `/organizations/${akwa}`, {})).statusCode).toBe(404);
      expect((await call('GET', `/organizations/${akwa}/branches`, {})).statusCode).toBe(404);
    } finally {
      await db
        .updateTable('organizations')
        .set({ active: true })
        .where('id', '=', s.fx.orgId)
        .execute();
    }
  });
});
