// engines: postgres and pglite — pg_dump/pg_restore, or the PGlite data folder dumped and loaded
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { uploadResponseSchema } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLI_BUNDLE } from '../../build/bundle.js';
import { runBackupCli, runRestoreCli } from '../../src/backup/cli.js';
import { PART } from '../../src/backup/manifest.js';
import { FixedClock } from '../../src/core/clock.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { bearer, createUser, signIn, TEST_PASSWORD } from '../support/auth-helpers.js';
import { LEGACY_KEY } from '../support/checkin-helpers.js';
import { createFixture, initiateBody } from '../support/fixtures.js';
import { NO_LIMITS, statusOf } from '../support/payment-helpers.js';
import { adminQuery, adminUrl } from '../support/run-databases.js';
import { createTestApp, PINNED_NOW } from '../support/test-app.js';
import { createTestDatabase, openMigratedPgliteOnDisk } from '../support/test-db.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

/**
 * Runs the backup or restore command as its own process with only `env`: the bundled command
 * line (`qless backup`, which the global setup brings up to date), as a deploy runs it. Through
 * tsx each run spent about 2 s of CPU compiling TypeScript (issue 29).
 */
function runCli(
  name: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI_BUNDLE, name, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += String(d);
  });
  child.stderr.on('data', (d) => {
    output += String(d);
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

/** Runs a command in this process, capturing its lines (refusals: no process start needed). */
async function inProcess(
  run: typeof runBackupCli,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await run(args, { env, out: (l) => lines.push(l), err: (l) => lines.push(l) });
  return { code, lines };
}

async function multipart(data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([data], { type: 'image/png' }), 'logo.png');
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** Today in Douala at PINNED_NOW is 2026-03-04, 09:30: slots from 10:00 on are bookable. */
const TODAY = '2026-03-04';

interface Original {
  bookings: { paymentId: string; bookingId: string; key: string; code: string; token: string }[];
  logo: { name: string; bytes: Buffer };
  email: string;
}

describe('backups that restore', () => {
  const engine = inject('engine');
  let work: string;
  const databases: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'qless-backup-'));
  });
  afterAll(async () => {
    for (const name of databases) await adminQuery(`drop database if exists ${name} with (force)`);
    await rm(work, { recursive: true, force: true });
  });

  /** A new, empty PostgreSQL database (the restore's target); its URL. */
  async function emptyDatabase(): Promise<string> {
    const name = `qless_restore_${randomBytes(5).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    databases.push(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  /** Books and pays two tickets, uploads a logo, makes an account; what a restore must hold. */
  async function fill(app: FastifyInstance, database: Database, clock: FixedClock) {
    const fx = await createFixture(database, clock.now());
    const email = `admin-${engine}@backup.cm`;
    await createUser(database.db, { email, role: 'org_admin', organizationId: fx.orgId });
    const admin = bearer(await signIn(app, email));
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 40, b: 40 } },
    })
      .png()
      .toBuffer();
    const body = await multipart(png);
    const up = await app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: { ...admin, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const logoPath = new URL(uploadResponseSchema.parse(up.json()).secure_url).pathname;
    const served = await app.inject({ method: 'GET', url: logoPath });
    const started = [];
    for (const [slotIndex, phone] of [
      [12, '+237677123456'],
      [13, '+237699123457'],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(fx, { slotIndex, date: TODAY, phone_number: phone }),
      });
      expect(res.statusCode, res.body).toBe(201);
      started.push(res.json().payment as { payment_id: string; access_key: string });
    }
    // The simulator settles; the reconciler asks it about payments older than 20 s.
    clock.advance(30_000);
    await app.payments.reconciler.sweep();
    const bookings = [];
    for (const p of started) {
      const status = await statusOf(app, p.payment_id);
      expect(status.status, JSON.stringify(status)).toBe('SUCCESSFUL');
      if (!status.ticket || !status.booking_id) throw new Error('no ticket');
      bookings.push({
        paymentId: p.payment_id,
        bookingId: status.booking_id,
        key: p.access_key,
        code: status.ticket.code,
        token: status.ticket.token,
      });
    }
    return {
      bookings,
      logo: { name: path.basename(logoPath), bytes: served.rawPayload },
      email,
    } satisfies Original;
  }

  it('restores every booking, ticket, payment, account and logo; the ticket still verifies', async () => {
    const dataDir = path.join(work, 'data');
    const backupDir = path.join(work, 'backups');
    // Set: the legacy verification key lives outside the database and outside the backup.
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      BACKUP_DIR: backupDir,
      TICKET_SIGNING_KEY: LEGACY_KEY,
    };
    let database: Database;
    if (engine === 'pglite') {
      database = await openMigratedPgliteOnDisk(dataDir);
    } else {
      const tdb = await createTestDatabase('postgres');
      databases.push(new URL(tdb.url as string).pathname.slice(1));
      database = tdb.database;
      env.DATABASE_URL = tdb.url as string;
    }
    const clock = new FixedClock(PINNED_NOW);
    const appEnv = {
      ...NO_LIMITS,
      DATA_DIR: dataDir,
      SIMULATOR_DELAY_MS: '5000',
      TICKET_SIGNING_KEY: LEGACY_KEY,
    };
    const first = await createTestApp(database, { clock, env: appEnv });
    const original = await fill(first.app, database, clock);

    if (engine === 'pglite') {
      // The embedded database is this process's while it runs: a backup now is refused.
      const refused = await inProcess(runBackupCli, [], env);
      expect(refused.code).toBe(2);
      expect(refused.lines.join('\n')).toMatch(/is open \(postmaster\.pid\): stop the server/);
    }
    await first.app.close();
    await database.close();

    const backup = await runCli('backup', [], env);
    expect(backup.code, backup.output).toBe(0);
    const [name] = await readdir(backupDir);
    const folder = path.join(backupDir, name ?? '');
    expect(name).toMatch(/^qless-\d{8}T\d{6}Z$/);
    // Personal data: the folder and every file in it are the owner's only.
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    for (const file of await readdir(folder)) {
      expect((await stat(path.join(folder, file))).mode & 0o777, file).toBe(0o600);
    }
    const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      engine,
      migration: expect.stringMatching(/^\d{3}-/),
      ticket_keys: { signing: 'database', legacy_verify: 'environment' },
      counts: { bookings: 2, payments: 2, users: 1, uploads: 1, organizations: 1 },
      upload_files: 1,
    });

    // The restore's target: a new empty PostgreSQL database, or a new data folder.
    const restoredDir = path.join(work, 'restored');
    const into = engine === 'pglite' ? restoredDir : await emptyDatabase();
    const target = { DATA_DIR: restoredDir };

    // One byte changed anywhere in the dump: refused by the sums, and nothing restored.
    const damaged = path.join(work, 'damaged');
    await cp(folder, damaged, { recursive: true });
    const dumpFile = path.join(damaged, PART[engine]);
    const bytes = await readFile(dumpFile);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    await writeFile(dumpFile, bytes);
    const corrupt = await inProcess(runRestoreCli, ['--from', damaged, '--into', into], target);
    expect(corrupt.code).toBe(2);
    expect(corrupt.lines).toEqual([
      `restore: the backup is damaged: ${PART[engine]} does not match its sha256 sum; nothing was restored (use another copy)`,
    ]);

    const restore = await runCli('restore', ['--from', folder, '--into', into], target);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toMatch(/2 bookings, 2 payments, 1 accounts, 1 uploads/);
    expect(restore.output).toMatch(/TICKET_SIGNING_KEY .* give the restored server the same value/);
    // Never a secret in what the commands print, nor in the backup.
    for (const text of [backup.output, restore.output]) expect(text).not.toContain(LEGACY_KEY);
    for (const file of await readdir(folder)) {
      const content = await readFile(path.join(folder, file));
      expect(content.includes(LEGACY_KEY), file).toBe(false);
    }

    // A second restore into the now non-empty target is refused in one line.
    const again = await inProcess(runRestoreCli, ['--from', folder, '--into', into], target);
    expect(again.code).toBe(2);
    expect(again.lines).toHaveLength(1);
    expect(again.lines[0]).toMatch(
      engine === 'pglite' ? /holds an embedded database already/ : /is not empty/,
    );

    // A server on the restored database finds everything.
    const restored =
      engine === 'pglite'
        ? await openDatabase({ databaseUrl: null, dataDir: restoredDir })
        : await openDatabase({ databaseUrl: into, dataDir: null });
    try {
      await migrateToLatest(restored.db);
      const { app } = await createTestApp(restored, {
        clock: new FixedClock(clock.now().toISOString()),
        env: { ...appEnv, DATA_DIR: restoredDir },
      });
      try {
        await expectEverything(app, restored, original);
      } finally {
        await app.close();
      }
    } finally {
      await restored.close();
    }
    // Its steps are processes and a WASM database each; a loaded CI machine takes its time.
  }, 120_000);
});

async function expectEverything(app: FastifyInstance, database: Database, original: Original) {
  // The account signs in with its password.
  const staff = bearer(await signIn(app, original.email, TEST_PASSWORD));
  for (const b of original.bookings) {
    // The customer's access key still opens the booking.
    const view = await app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${b.bookingId}`,
      headers: { 'x-booking-key': b.key },
    });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().booking).toMatchObject({ code: b.code, status: 'confirmed' });
    // The payment, its state and amount; the ticket with the same signed token.
    const status = await statusOf(app, b.paymentId);
    expect(status).toMatchObject({ status: 'SUCCESSFUL', booking_id: b.bookingId });
    expect(status.ticket?.token).toBe(b.token);
    const payment = await database.db
      .selectFrom('payments')
      .select(['status', 'amount', 'currency'])
      .where('id', '=', b.paymentId)
      .executeTakeFirstOrThrow();
    expect(payment).toEqual({ status: 'SUCCESSFUL', amount: 2, currency: 'XAF' });
    const lookup = await app.inject({ method: 'GET', url: `/api/v1/tickets/${b.code}` });
    expect(lookup.statusCode).toBe(200);
    // The QR's token verifies at the counter: the signing key came back with the data.
    const verify = await app.inject({
      method: 'POST',
      url: '/api/v1/tickets/verify',
      headers: staff,
      payload: { token: b.token },
    });
    expect(verify.json()).toMatchObject({ valid: true, reason: 'OK' });
  }
  // The logo, byte for byte.
  const logo = await app.inject({ method: 'GET', url: `/api/v1/uploads/${original.logo.name}` });
  expect(logo.statusCode).toBe(200);
  expect(Buffer.compare(logo.rawPayload, original.logo.bytes)).toBe(0);
}
