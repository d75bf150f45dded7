import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addDays, dayOfWeek, zonedNow } from '@qless/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleApi } from '../build/bundle.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest, migrationNames } from '../src/db/migrate.js';
import { seedDemo } from '../src/demo/seed.js';
import { freePort } from './support/server-process.js';
import { adminQuery, adminUrl } from './support/test-db.js';

/**
 * The rule of decision 027: the previous release runs against the new schema. Its server
 * (the commit in deploy/previous-release, built from git with today's node_modules) is
 * started on a database this code migrated, and a customer's round is played on it.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const PREVIOUS = readFileSync(path.join(ROOT, 'deploy/previous-release'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .find((l) => l !== '' && !l.startsWith('#')) as string;

function hasCommit(commit: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const available = hasCommit(PREVIOUS);
if (!available) {
  console.warn(
    `previous-release: skipped, this clone's history lacks ${PREVIOUS} (a shallow clone?): git fetch --unshallow`,
  );
}

// A Monday at 09:30 in Douala, when the demo's organizations are open (the queue's join).
let monday = addDays(zonedNow('Africa/Douala', new Date()).date, 2);
while (dayOfWeek(monday) !== 1) monday = addDays(monday, 1);
const NOW = `${monday}T09:30:00+01:00`;
const DEMO_OPERATOR = { email: 'operator@qless.demo', password: 'qless-demo-2026' };

/** The previous release's apps/api and packages/contract, on today's node_modules. */
function checkOut(commit: string, into: string): void {
  const tar = execFileSync(
    'git',
    ['archive', '--format=tar', commit, 'tsconfig.base.json', 'apps/api', 'packages/contract'],
    {
      cwd: ROOT,
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  execFileSync('tar', ['-x', '-C', into], { input: tar });
  // Every package as installed today, but @qless/contract: the release's own.
  const modules = path.join(into, 'node_modules');
  mkdirSync(path.join(modules, '@qless'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@qless' || entry.startsWith('.')) continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  symlinkSync(path.join(into, 'packages/contract'), path.join(modules, '@qless/contract'));
}

// PostgreSQL only (a deploy's engine), also when QLESS_TEST_ENGINES=both puts the file on PGlite.
describe.runIf(available && inject('engine') === 'postgres')(
  `the previous release (${PREVIOUS}) on the new schema`,
  () => {
    let dir: string;
    let database: string;
    let child: ChildProcess | null = null;
    let output = '';
    let origin: string;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'qless-previous-'));
      checkOut(PREVIOUS, dir);
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
      const db = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
      try {
        expect(await migrateToLatest(db.db)).toEqual(migrationNames);
        // The demo data written by this code: the old server reads what the new one wrote.
        await seedDemo(db.db, new Date(NOW), 'Africa/Douala');
      } finally {
        await db.close();
      }
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
      const { body: catalogue } = await api<{
        organizations: { organization_id: string; name: string }[];
      }>('GET', '/organizations');
      expect(catalogue.organizations.length).toBeGreaterThan(0);
      const org = catalogue.organizations.find((o) => o.name === 'Bamenda Regional Hospital');
      expect(org, 'the demo data').toBeDefined();
      const orgId = org?.organization_id as string;
      const { body: listed } = await api<{ services: { service_id: string }[] }>(
        'GET',
        `/organizations/${orgId}/services`,
      );
      const serviceId = listed.services[0]?.service_id as string;
      const { body: week } = await api<{
        slots: { id: string; start_time: { Valid: boolean } }[];
        today: string;
      }>('GET', `/service/${serviceId}/slots`);

      // Booked and paid as a customer does: the first slot from today that takes it.
      let ticket: { code: string; token: string } | null = null;
      for (let ahead = 0; ahead <= 14 && !ticket; ahead++) {
        for (const slot of week.slots.filter((s) => s.start_time.Valid)) {
          const started = await api<{ payment: { payment_id: string } }>(
            'POST',
            '/payment/initiate',
            {
              cus_name: 'Ngono Marie',
              cus_email: 'ngono.marie@example.com',
              phone_number: '+237677123456',
              amount: '2',
              currency: 'XAF',
              reference: `previous-release-${ahead}-${slot.id}`,
              service_id: serviceId,
              slot_id: slot.id,
              date: addDays(week.today, ahead),
            },
          );
          if (started.status !== 200 && started.status !== 201) continue;
          const id = started.body.payment.payment_id;
          await expect
            .poll(async () => (await api<{ status: string }>('GET', `/payment/${id}`)).body.status)
            .toBe('SUCCESSFUL');
          const paid = await api<{ ticket: { code: string; token: string } | null }>(
            'GET',
            `/payment/${id}`,
          );
          ticket = paid.body.ticket;
          break;
        }
      }
      expect(ticket, 'a paid booking has its ticket').not.toBeNull();

      const login = await api<{ token: string }>('POST', '/auth/login', DEMO_OPERATOR);
      expect(login.status).toBe(200);
      const verified = await api<{ reason: string; ticket: { code: string } | null }>(
        'POST',
        '/tickets/verify',
        { token: ticket?.token },
        login.body.token,
      );
      expect(verified.status).toBe(200);
      // Signed and found (today's: OK; another day's: NOT_TODAY), never INVALID_SIGNATURE.
      expect(['OK', 'NOT_TODAY']).toContain(verified.body.reason);
      expect(verified.body.ticket?.code).toBe(ticket?.code);

      // The queue: the operator opens the poster's page; a walk-in joins from it.
      const scope = `organization_id=${orgId}`;
      const current = await api<{ settings: Record<string, unknown> }>(
        'GET',
        `/queue/settings?${scope}`,
        undefined,
        login.body.token,
      );
      expect(current.status).toBe(200);
      const saved = await api(
        'PUT',
        `/queue/settings?${scope}`,
        {
          ...current.body.settings,
          join_enabled: true,
        },
        login.body.token,
      );
      expect(saved.status).toBe(200);
      const joined = await api<{ turn: unknown; key: string }>('POST', `/join/${orgId}`, {
        service_id: serviceId,
        name: 'Fon Peter',
      });
      expect({ status: joined.status, output }).toMatchObject({ status: 201 });
      expect(joined.body.key.length).toBeGreaterThan(10);
    }, 60_000);
  },
);
