import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { makePrivate } from '../db/data-dir.js';
import { assertPGliteClosed, exists } from './backup.js';
import {
  type Counts,
  checkCounts,
  type Manifest,
  PART,
  readState,
  readVerifiedManifest,
  UPLOADS_PART,
} from './manifest.js';
import { backupName } from './retention.js';
import {
  BackupError,
  describeUrl,
  pgConnection,
  runTool,
  untarUploads,
  uploadEntries,
} from './tools.js';

export interface RestoreOptions {
  /** The backup folder (`BACKUP_DIR/qless-…`). */
  from: string;
  /**
   * `--into`: a PostgreSQL backup's target database URL (an empty database), or a PGlite
   * backup's new DATA_DIR. Null: DATABASE_URL, or DATA_DIR.
   */
  into: string | null;
  /** DATABASE_URL of this environment. */
  databaseUrl: string | null;
  /** DATA_DIR of this environment: where uploads go (PGlite: unless `into` names another). */
  dataDir: string;
  /** Restore into a database that holds objects already (PostgreSQL: drop and recreate them). */
  force: boolean;
  now: Date;
}

export interface RestoreResult {
  manifest: Manifest;
  target: string;
  uploads: number;
  /** What the operator must still do (said once, after the restore). */
  notices: string[];
}

/** User tables, views and sequences outside PostgreSQL's own schemas: an empty database has none. */
const OBJECTS_SQL = `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
    and s.nspname not in ('pg_catalog', 'information_schema')
    and s.nspname not like 'pg_toast%' and s.nspname not like 'pg_temp%'`;

/**
 * Restores a backup made by createBackup: sums first (a damaged copy restores nothing), then
 * the database into an EMPTY target (PostgreSQL: pg_restore in one transaction; PGlite: its
 * data folder loaded into a new DATA_DIR), then the uploaded files, then a check that the
 * restored database holds the rows the manifest counted.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const from = path.resolve(options.from);
  const manifest = await readVerifiedManifest(from);
  const dbFile = path.join(from, PART[manifest.engine]);
  const isUrl = (s: string | null) => s !== null && /^postgres(ql)?:\/\//.test(s);
  const intoUrl = isUrl(options.into);
  let target: string;
  let counts: Counts;
  let dataDir = options.dataDir;
  if (manifest.engine === 'postgres') {
    const url = options.into ?? options.databaseUrl;
    if (!url || !isUrl(url)) {
      throw new BackupError(
        'this backup is of a PostgreSQL database: give --into postgres://… of an empty database (or set DATABASE_URL)',
      );
    }
    target = describeUrl(url);
    counts = await restorePostgres(url, dbFile, options.force);
  } else {
    if (intoUrl || (options.into === null && options.databaseUrl)) {
      throw new BackupError(
        'this backup is of the embedded database (PGlite): it restores into a data folder (--into <new DATA_DIR>), not into PostgreSQL',
      );
    }
    dataDir = path.resolve(options.into ?? options.dataDir);
    target = path.join(dataDir, 'pglite');
    counts = await restorePGlite(dataDir, dbFile, options.force, options.now);
  }
  checkCounts(manifest.counts, counts);
  const uploads = await restoreUploads(path.join(from, UPLOADS_PART), dataDir);
  const notices: string[] = [];
  if (manifest.ticket_keys.legacy_verify === 'environment') {
    notices.push(
      'The backed-up server had TICKET_SIGNING_KEY set (the key that verifies tickets issued before Ed25519): it is not in the backup; give the restored server the same value.',
    );
  }
  return { manifest, target, uploads, notices };
}

async function restorePostgres(url: string, file: string, force: boolean): Promise<Counts> {
  const objects = await withClient(url, async (client) => {
    return (await client.query<{ n: number }>(OBJECTS_SQL)).rows[0]?.n ?? 0;
  });
  if (objects > 0 && !force) {
    throw new BackupError(
      `the database at ${describeUrl(url)} is not empty (${objects} tables, views or sequences); restore into a new empty database (createdb), or pass --force to replace what the backup holds`,
    );
  }
  const { dbname, env } = pgConnection(url);
  await runTool(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      ...(objects > 0 ? ['--clean', '--if-exists'] : []),
      `--dbname=${dbname}`,
      file,
    ],
    env,
  );
  return withClient(
    url,
    async (client) => (await readState(async (text) => (await client.query(text)).rows)).counts,
  );
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(
      `cannot reach the database at ${describeUrl(url)}: ${(err as Error).message} (create it first: createdb)`,
      { cause: err },
    );
  }
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function restorePGlite(
  dataDir: string,
  file: string,
  force: boolean,
  now: Date,
): Promise<Counts> {
  const dir = path.join(dataDir, 'pglite');
  if ((await exists(dir)) && (await readdir(dir)).length > 0) {
    await assertPGliteClosed(dir, 'restore');
    if (!force) {
      throw new BackupError(
        `${dataDir} holds an embedded database already; restore into a new, empty DATA_DIR (--into), or pass --force to move the present one aside`,
      );
    }
    const aside = `${dir}.before-restore-${backupName(now).slice('qless-'.length)}`;
    await rename(dir, aside);
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create({
    dataDir: dir,
    loadDataDir: new Blob([await readFile(file)]),
  });
  try {
    const query = async (text: string) => (await pglite.query<Record<string, unknown>>(text)).rows;
    return (await readState(query)).counts;
  } finally {
    await pglite.close();
    await makePrivate(dataDir, dir);
  }
}

/** Our upload files back into DATA_DIR/uploads (private, like the server writes them). */
async function restoreUploads(file: string, dataDir: string): Promise<number> {
  const entries = await uploadEntries(file);
  const uploads = path.join(dataDir, 'uploads');
  await mkdir(uploads, { recursive: true, mode: 0o700 });
  if (entries.length > 0) await untarUploads(file, dataDir);
  // The uploads folder and its files only: DATA_DIR's own mode is the operator's (or systemd's).
  await makePrivate(uploads, uploads);
  return entries.length;
}
