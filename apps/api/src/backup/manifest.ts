import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { BackupError, fileDigest } from './tools.js';

export const MANIFEST = 'manifest.json';
/** The same sums in `sha256sum -c` form, so a copy can be checked off-site without Node. */
export const SUMS = 'SHA256SUMS';
/** PostgreSQL: pg_dump --format=custom. PGlite: its data folder as dumpDataDir's tar.gz. */
export const PART = { postgres: 'database.pgdump', pglite: 'pglite-datadir.tar.gz' } as const;
export const UPLOADS_PART = 'uploads.tar';

/** Rows that a restore must find again (compared after the restore, in the same snapshot). */
export const COUNTED_TABLES = [
  'organizations',
  'users',
  'bookings',
  'payments',
  'uploads',
] as const;
export type Counts = Record<(typeof COUNTED_TABLES)[number], number>;

const COUNTS_SQL = `select ${COUNTED_TABLES.map(
  (t) => `(select count(*) from ${t})::int as ${t}`,
).join(', ')}`;

/** Migrations are recorded in kysely_migration (001–019) and, later ones, qless_migration. */
const LEDGERS = ['kysely_migration', 'qless_migration'];

export type Query = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * The rows counted and the newest migration applied, read by either engine (inside the
 * dump's snapshot on PostgreSQL).
 */
export async function readState(
  query: Query,
): Promise<{ counts: Counts; migration: string | null }> {
  const row = (await query(COUNTS_SQL))[0];
  if (!row) throw new BackupError('the database gave no counts');
  const counts = Object.fromEntries(COUNTED_TABLES.map((t) => [t, Number(row[t])])) as Counts;
  let migration: string | null = null;
  for (const table of LEDGERS) {
    const [present] = await query(`select to_regclass('public.${table}') is not null as present`);
    if (present?.present !== true) continue;
    const [newest] = await query(`select max(name) as name from ${table}`);
    const name = typeof newest?.name === 'string' ? newest.name : null;
    if (name && (!migration || name > migration)) migration = name;
  }
  return { counts, migration };
}

const countsSchema = z.object(
  Object.fromEntries(COUNTED_TABLES.map((t) => [t, z.number().int().min(0)])) as Record<
    (typeof COUNTED_TABLES)[number],
    z.ZodNumber
  >,
);

const partSchema = z.object({
  name: z.string().regex(/^[a-z0-9.-]+$/),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const manifestSchema = z.object({
  format: z.literal('qless-backup/1'),
  created_at: z.string(),
  engine: z.enum(['postgres', 'pglite']),
  /** The newest migration applied to the database dumped (restore with code that knows it). */
  migration: z.string().nullable(),
  app: z.object({ version: z.string().nullable(), commit: z.string().nullable() }),
  /** PostgreSQL only: the server's version (pg_restore must be this major or newer). */
  server_version: z.string().nullable(),
  /**
   * Where the ticket keys live. The Ed25519 key that signs tickets is always in the database
   * (app_secrets), so it is in the dump. The HS256 key that only verifies older tickets is in
   * the dump too, unless TICKET_SIGNING_KEY was set: then the operator must give the restored
   * server the same value (it is never written into a backup).
   */
  ticket_keys: z.object({
    signing: z.literal('database'),
    legacy_verify: z.enum(['environment', 'database', 'none']),
  }),
  counts: countsSchema,
  upload_files: z.number().int().min(0),
  parts: z.array(partSchema).min(2),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** Writes the manifest and SHA256SUMS; the manifest's own sum is in SHA256SUMS. */
export async function writeManifest(folder: string, manifest: Manifest): Promise<void> {
  await writeFile(path.join(folder, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  const lines = [];
  for (const name of [...manifest.parts.map((p) => p.name), MANIFEST]) {
    lines.push(`${(await fileDigest(path.join(folder, name))).sha256}  ${name}`);
  }
  await writeFile(path.join(folder, SUMS), `${lines.join('\n')}\n`, { mode: 0o600 });
}

/**
 * Reads a backup's manifest after checking every sum (SHA256SUMS, then the manifest's own
 * sizes and sums of its parts): a copy damaged on the way, even by one byte, is refused
 * before anything is restored.
 */
export async function readVerifiedManifest(folder: string): Promise<Manifest> {
  let sums: string;
  try {
    sums = await readFile(path.join(folder, SUMS), 'utf8');
  } catch {
    throw new BackupError(`${folder} is not a Qless backup (no ${SUMS} in it)`);
  }
  const listed = new Map<string, string>();
  for (const line of sums.split('\n').filter(Boolean)) {
    const match = /^([0-9a-f]{64}) {2}([a-z0-9.-]+)$/.exec(line);
    if (!match?.[1] || !match[2]) throw new BackupError(`${SUMS} of ${folder} is damaged`);
    listed.set(match[2], match[1]);
  }
  const check = async (name: string, sha256: string | undefined, bytes?: number) => {
    if (!sha256) throw new BackupError(`${name} is not listed in the backup's sums`);
    let actual: { sha256: string; bytes: number };
    try {
      actual = await fileDigest(path.join(folder, name));
    } catch {
      throw new BackupError(`the backup ${folder} lacks ${name}`);
    }
    if (actual.sha256 !== sha256 || (bytes !== undefined && actual.bytes !== bytes)) {
      throw new BackupError(
        `the backup is damaged: ${name} does not match its sha256 sum; nothing was restored (use another copy)`,
      );
    }
  };
  await check(MANIFEST, listed.get(MANIFEST));
  const parsed = manifestSchema.safeParse(
    JSON.parse(await readFile(path.join(folder, MANIFEST), 'utf8')),
  );
  if (!parsed.success) throw new BackupError(`${MANIFEST} of ${folder} is not one we can read`);
  for (const part of parsed.data.parts) {
    await check(part.name, listed.get(part.name), part.bytes);
    if (listed.get(part.name) !== part.sha256) {
      throw new BackupError(`the backup is damaged: ${part.name}'s sums disagree`);
    }
  }
  return parsed.data;
}

/** The counts a restored database must show; throws naming what differs. */
export function checkCounts(expected: Counts, actual: Counts): void {
  const wrong = COUNTED_TABLES.filter((t) => expected[t] !== actual[t]);
  if (wrong.length > 0) {
    throw new BackupError(
      `the restored database differs from the backup: ${wrong
        .map((t) => `${t} ${actual[t]} (backup: ${expected[t]})`)
        .join(', ')}`,
    );
  }
}
