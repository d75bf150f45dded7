import { execFile } from 'node:child_process';
import {
  chmod,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { makePrivate } from '../db/data-dir.js';
import { LEGACY_TICKET_KEY_SECRET } from '../modules/tickets/tickets.module.js';
import {
  type Counts,
  type Manifest,
  PART,
  readState,
  UPLOADS_PART,
  writeManifest,
} from './manifest.js';
import { backupName } from './retention.js';
import {
  BackupError,
  describeUrl,
  fileDigest,
  pgConnection,
  runTool,
  tarUploads,
} from './tools.js';

export interface BackupOptions {
  /** Null: the embedded database in `dataDir/pglite`. */
  databaseUrl: string | null;
  dataDir: string;
  backupDir: string;
  /** TICKET_SIGNING_KEY is set: the legacy verification key lives outside the database. */
  legacyKeyInEnvironment: boolean;
  now: Date;
}

export interface BackupResult {
  folder: string;
  manifest: Manifest;
}

const LEGACY_SQL = `select exists (select 1 from app_secrets where name = '${LEGACY_TICKET_KEY_SECRET}') as legacy`;

interface Snapshot {
  counts: Counts;
  migration: string | null;
  legacyInDatabase: boolean;
  serverVersion: string | null;
}

/**
 * Makes `BACKUP_DIR/qless-<UTC time>/`: the database (pg_dump custom format, or the PGlite
 * data folder), the uploaded files, a manifest and sums. Written under a `.partial` name and
 * renamed when complete, so a folder without that suffix is a whole backup. Folder 0700,
 * files 0600: a backup holds customers' personal data.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  await mkdir(options.backupDir, { recursive: true, mode: 0o700 });
  const name = backupName(options.now);
  const folder = path.join(options.backupDir, name);
  const partial = `${folder}.partial`;
  if (await exists(folder)) throw new BackupError(`${folder} exists already`);
  if (!options.databaseUrl) await assertPGliteReady(options.dataDir);
  try {
    await mkdir(partial, { mode: 0o700 });
  } catch (err) {
    throw new BackupError(`cannot create ${partial}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const manifest = await writeParts(options, partial);
    await rename(partial, folder);
    return { folder, manifest };
  } catch (err) {
    // Half a backup is no backup: leave nothing that looks like one.
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}

async function writeParts(options: BackupOptions, partial: string): Promise<Manifest> {
  const engine = options.databaseUrl ? 'postgres' : 'pglite';
  const dbFile = path.join(partial, PART[engine]);
  const snapshot = options.databaseUrl
    ? await dumpPostgres(options.databaseUrl, dbFile)
    : await dumpPGlite(options.dataDir, dbFile);
  // After the database: every upload its rows name was written before its row (uploads.routes).
  const uploadsDir = path.join(options.dataDir, 'uploads');
  const uploadFiles = (await exists(uploadsDir)) ? (await readdir(uploadsDir)).length : 0;
  const uploadsFile = path.join(partial, UPLOADS_PART);
  await tarUploads(options.dataDir, uploadsFile, await exists(uploadsDir));
  const parts = [];
  for (const file of [dbFile, uploadsFile]) {
    await chmod(file, 0o600);
    parts.push({ name: path.basename(file), ...(await fileDigest(file)) });
  }
  const manifest: Manifest = {
    format: 'qless-backup/1',
    created_at: options.now.toISOString(),
    engine,
    migration: snapshot.migration,
    app: await appVersion(),
    server_version: snapshot.serverVersion,
    ticket_keys: {
      signing: 'database',
      legacy_verify: options.legacyKeyInEnvironment
        ? 'environment'
        : snapshot.legacyInDatabase
          ? 'database'
          : 'none',
    },
    counts: snapshot.counts,
    upload_files: uploadFiles,
    parts,
  };
  await writeManifest(partial, manifest);
  return manifest;
}

/**
 * pg_dump inside a snapshot exported by our own read-only transaction, so the counts and
 * migration level in the manifest are those of the very rows dumped, whatever runs meanwhile.
 */
async function dumpPostgres(url: string, file: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(
      `cannot reach the database at ${describeUrl(url)}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  try {
    await client.query('begin isolation level repeatable read read only');
    const id = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]
      ?.id;
    if (!id) throw new BackupError('the database gave no snapshot');
    const state = await readState(async (text) => (await client.query(text)).rows);
    const legacy = (await client.query<{ legacy: boolean }>(LEGACY_SQL)).rows[0]?.legacy;
    const version = (
      await client.query<{ v: string }>(`select current_setting('server_version') as v`)
    ).rows[0]?.v;
    const { dbname, env } = pgConnection(url);
    await runTool(
      'pg_dump',
      ['--format=custom', `--snapshot=${id}`, `--file=${file}`, `--dbname=${dbname}`],
      env,
    );
    await client.query('commit');
    return {
      ...state,
      legacyInDatabase: legacy === true,
      serverVersion: version?.split(' ')[0] ?? null,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The embedded database belongs to one process: PGlite has no lock, and a second process
 * opening the folder while the server runs would corrupt it. The server's PGlite keeps a
 * `postmaster.pid` in the folder while open (removed when it closes), so its presence refuses.
 */
export async function assertPGliteClosed(dir: string, verb: string): Promise<void> {
  if (await exists(path.join(dir, 'postmaster.pid'))) {
    throw new BackupError(
      `the embedded database in ${dir} is open (postmaster.pid): stop the server, ${verb}, start it again. If no server runs, the last one did not stop cleanly: start it and stop it once`,
    );
  }
}

async function assertPGliteReady(dataDir: string): Promise<void> {
  const dir = path.join(dataDir, 'pglite');
  if (!(await exists(path.join(dir, 'PG_VERSION')))) {
    throw new BackupError(`there is no embedded database in ${dataDir} (DATA_DIR)`);
  }
  await assertPGliteClosed(dir, 'back up');
}

async function dumpPGlite(dataDir: string, file: string): Promise<Snapshot> {
  const dir = path.join(dataDir, 'pglite');
  // Loaded only here: PostgreSQL backups need not compile PGlite's WASM.
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create({ dataDir: dir });
  try {
    const state = await readState(
      async (text) => (await pglite.query<Record<string, unknown>>(text)).rows,
    );
    const legacy = (await pglite.query<{ legacy: boolean }>(LEGACY_SQL)).rows[0]?.legacy;
    const dump = await pglite.dumpDataDir('gzip');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    return { ...state, legacyInDatabase: legacy === true, serverVersion: null };
  } finally {
    await pglite.close();
    // PGlite rewrote its files 0666 (see data-dir.ts): make them private again.
    await makePrivate(dataDir, dir);
  }
}

/**
 * The API's package version and the commit: from git in a checkout, else from the release
 * folder's name (deploy/release.sh makes /opt/qless/releases/<time>-<commit>).
 */
async function appVersion(): Promise<{ version: string | null; commit: string | null }> {
  let version: string | null = null;
  // src/backup/ in a checkout, dist/ in the bundle: the package is one or two folders up.
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(await readFile(path.resolve(import.meta.dirname, up), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@qless/api') version = pkg.version ?? null;
    } catch {
      // Not there.
    }
  }
  let commit: string | null = null;
  try {
    const { stdout } = await promisify(execFile)('git', ['rev-parse', 'HEAD'], {
      cwd: import.meta.dirname,
      timeout: 5000,
    });
    commit = stdout.trim() || null;
  } catch {
    const release = await realpath(path.resolve(import.meta.dirname, '../../..')).catch(() => '');
    commit = /^\d{8}T\d{6}Z-([0-9a-f]{7,40})$/.exec(path.basename(release))?.[1] ?? null;
  }
  return { version, commit };
}

export async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}
