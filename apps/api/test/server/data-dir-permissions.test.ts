import { chmod, lstat, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/**
 * DATA_DIR itself and every entry of the embedded database in it whose mode is not
 * private: "mode path".
 */
async function openEntries(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (p: string): Promise<void> => {
    const st = await lstat(p);
    const mode = st.mode & 0o777;
    if (mode !== (st.isDirectory() ? 0o700 : 0o600)) {
      found.push(`${mode.toString(8)} ${path.relative(root, p)}`);
    }
    if (st.isDirectory()) for (const name of await readdir(p)) await visit(path.join(p, name));
  };
  const own = (await stat(root)).mode & 0o777;
  if (own !== 0o700) found.push(`${own.toString(8)} .`);
  await visit(path.join(root, 'pglite'));
  return found;
}

// PostgreSQL keeps its own files; this is about the embedded database's folder only.
describe('the embedded database folder (DATA_DIR)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('is private to this user: folders 0700, files 0600, while running and after a restart that repairs it', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'qless-perm-'));
    dirs.push(parent);
    const dataDir = path.join(parent, 'data');
    // DATA_DIR exists, open to all (umask 022), with someone else's file: not ours to change.
    await mkdir(path.join(dataDir, 'backups'), { recursive: true, mode: 0o755 });
    const theirs = path.join(dataDir, 'backups/README.txt');
    await writeFile(theirs, 'nightly dumps', { mode: 0o644 });
    const notices: string[] = [];
    const first = await openDatabase({
      databaseUrl: null,
      dataDir,
      onNotice: (m) => notices.push(m),
    });
    await migrateToLatest(first.db);
    const whileRunning = await openEntries(dataDir);
    await first.close();
    expect({ whileRunning: whileRunning.slice(0, 5), count: whileRunning.length }).toEqual({
      whileRunning: [],
      count: 0,
    });

    // An older version (or a crash) left world-writable files: the next start repairs them.
    const pgliteDir = path.join(dataDir, 'pglite');
    await chmod(dataDir, 0o755);
    await chmod(path.join(pgliteDir, 'PG_VERSION'), 0o666);
    const second = await openDatabase({
      databaseUrl: null,
      dataDir,
      onNotice: (m) => notices.push(m),
    });
    const afterRepair = await openEntries(dataDir);
    await second.close();
    expect(afterRepair).toEqual([]);
    expect(((await stat(theirs)).mode & 0o777).toString(8)).toBe('644');
    // First start: DATA_DIR itself; second: DATA_DIR and PG_VERSION.
    expect(notices.map((n) => n.replace(dataDir, 'DATA_DIR'))).toEqual(
      [1, 2].map(
        (n) =>
          `Made ${n} file(s) and folder(s) under DATA_DIR private to this user (folders 0700, files 0600): other users could read or write them`,
      ),
    );
  }, 60_000);
});
