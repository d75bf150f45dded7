import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addDays, dayOfWeek, zonedNow } from '@qless/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleApi } from '../../build/bundle.js';
import { checkOutRelease } from '../../build/previous-release.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest, migrationNames } from '../../src/db/migrate.js';
import { createUser, TEST_PASSWORD } from '../support/auth-helpers.js';
import { createFixture, type Fixture, initiateBody } from '../support/fixtures.js';
import { adminQuery, adminUrl } from '../support/run-databases.js';
import { freePort } from '../support/server-process.js';

/**
 * The rule of decision 027: the previous release runs against the new schema. Its server
 * (the commit in deploy/previous-release, built from git with today's node_modules) is
 * started on a database this code migrated, and a customer's round is played on it.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const PREVIOUS = readFileSync(path.join(ROOT, 'deploy/previous-release'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .find((l) => l !== '' && !l.startsWith('#')) as string;

/**
 * Why the release cannot be checked out here, or null. This checkout must be a git work tree
 * of its own: Stryker copies the project into `.stryker-tmp/sandbox-…` inside the repository,
 * where git finds the outer repository and `git archive … apps/api` names a path that the
 * release does not have (issue 29).
 */
function unavailable(commit: string): string | null {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  try {
    if (path.resolve(git('rev-parse', '--show-toplevel')) !== ROOT) {
      return `${ROOT} is not the top of a git work tree (a sandbox copy, such as Stryker's)`;
    }
  } catch {
    return `${ROOT} is not a git work tree`;
  }
  try {
    git('cat-file', '-e', `${commit}^{commit}`);
    return null;
  } catch {
    return `this clone's history lacks ${commit} (a shallow clone?): git fetch --unshallow`;
  }
}
const reason = unavailable(PREVIOUS);
const available = reason === null;
if (reason) console.warn(`previous-release: skipped, ${reason}`);

// A Monday at 09:30 in Douala: the fixture's organization is open (07:00–18:00), its later
// slots of the day still ahead.
let monday = addDays(zonedNow('Africa/Douala', new Date()).date, 2);
while (dayOfWeek(monday) !== 1) monday = addDays(monday, 1);
const NOW = `${monday}T09:30:00+01:00`;
const ADMIN = { email: 'admin@previous-release.cm', password: TEST_PASSWORD };

// PostgreSQL only (a deploy's engine), also when QLESS_TEST_ENGINES=both puts the file on PGlite.
describe.runIf(available && inject('engine') === 'postgres')(
  `the previous release (${PREVIOUS}) on the new schema`,
  () => {
    let dir: string;
    let database: string;
    let child: ChildProcess | null = null;
    let output = '';
    let origin: string;
    let fixture: Fixture;
    let db: Awaited<ReturnType<typeof openDatabase>> | null = null;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'qless-previous-'));
      checkOutRelease(ROOT, PREVIOUS, dir);
      const { server } = await bundleApi({
        apiDir: path.join(dir, 'apps/api'),
        outDir: path.join(dir, 'apps/api/dist'),
        entries: ['src/server.ts'],
      });
      // A fresh database, migrated by this code (every migration, the newest included).
      database = `qless_previous_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create database ${database}`);
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      db = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
      expect(await migrateToLatest(db.db)).toEqual(migrationNames);
      // Rows written by this code (an organization, its services and slots, its admin): the
      // old server reads what the new one wrote.
      fixture = await createFixture(db, new Date(NOW), ' previous release');
      await createUser(db.db, { ...ADMIN, role: 'org_admin', organizationId: fixture.orgId });
      await db.close();
      db = null;
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      child = spawn(process.execPath, [server], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: url.toString(),
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_ORIGIN: origin,
          // A release that knows the setting only checks; an older one migrates (nothing to do).
          MIGRATE_ON_START: 'false',
          SEED_DEMO: 'false',
          NODE_ENV: 'test',
          QLESS_FAKE_NOW: NOW,
          SIMULATOR_DELAY_MS: '200',
          LOG_LEVEL: 'warn',
          WEB_DIST_DIR: path.join(dir, 'no-web-build'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (d) => {
        output += String(d);
      });
      child.stderr?.on('data', (d) => {
        output += String(d);
      });
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (child.exitCode !== null) {
          throw new Error(`The previous release's server exited (${child.exitCode}):\n${output}`);
        }
        const ok = await fetch(`${origin}/api/v1/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (Date.now() > deadline)
          throw new Error(`No answer from the previous release:\n${output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }, 60_000);

    afterAll(async () => {
      // Closed before its database is dropped, also when the set-up failed half-way.
      await db?.close();
      if (child && child.exitCode === null) {
        const exited = new Promise((r) => child?.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (database) await adminQuery(`drop database if exists ${database} with (force)`);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function api<T>(method: string, route: string, body?: unknown, token?: string) {
      const res = await fetch(`${origin}/api/v1${route}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as T };
    }

    it('lists the catalogue, sells a ticket through the simulator, verifies it, takes a queue join', async () => {
      const { body: catalogue } = await api<{ organizations: { organization_id: string }[] }>(
        'GET',
        '/organizations',
      );
      expect(catalogue.organizations.map((o) => o.organization_id)).toContain(fixture.orgId);
      const { body: listed } = await api<{ services: { service_id: string }[] }>(
        'GET',
        `/organizations/${fixture.orgId}/services`,
      );
      expect(listed.services.map((s) => s.service_id)).toContain(fixture.serviceId);

      // Booked and paid as a customer does, for 11:00 today (slot 16 of a day from 07:00).
      const started = await api<{ payment: { payment_id: string } }>(
        'POST',
        '/payment/initiate',
        initiateBody(fixture, { slotIndex: 16, date: monday }),
      );
      expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
      const id = started.body.payment.payment_id;
      await expect
        .poll(async () => (await api<{ status: string }>('GET', `/payment/${id}`)).body.status)
        .toBe('SUCCESSFUL');
      const paid = await api<{ ticket: { code: string; token: string } | null }>(
        'GET',
        `/payment/${id}`,
      );
      const ticket = paid.body.ticket;
      expect(ticket, 'a paid booking has its ticket').not.toBeNull();

      const login = await api<{ token: string }>('POST', '/auth/login', ADMIN);
      expect(login.status).toBe(200);
      const token = login.body.token;
      const verified = await api<{
        valid: boolean;
        reason: string;
        ticket: { code: string } | null;
      }>('POST', '/tickets/verify', { token: ticket?.token }, token);
      expect({
        status: verified.status,
        valid: verified.body.valid,
        reason: verified.body.reason,
        code: verified.body.ticket?.code,
      }).toEqual({ status: 200, valid: true, reason: 'OK', code: ticket?.code });

      // The queue: the admin opens the poster's page; a walk-in joins from it.
      const current = await api<{ settings: Record<string, unknown> }>(
        'GET',
        '/queue/settings',
        undefined,
        token,
      );
      expect(current.status).toBe(200);
      const saved = await api(
        'PUT',
        '/queue/settings',
        { ...current.body.settings, join_enabled: true },
        token,
      );
      expect(saved.status).toBe(200);
      const joined = await api<{ turn: unknown; key: string }>('POST', `/join/${fixture.orgId}`, {
        service_id: fixture.serviceId,
        name: 'Fon Peter',
      });
      expect({ status: joined.status, body: joined.body }).toMatchObject({
        status: 201,
        body: { key: expect.any(String) },
      });
    }, 60_000);
  },
);
