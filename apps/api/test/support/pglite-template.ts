import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export interface PgliteTemplate {
  /** A closed, migrated data folder (`<DATA_DIR>/pglite`): the browser files' PGlite servers. */
  dataDir: string;
  /** The same database dumped (`dumpDataDir`): each api-pglite file loads it in memory. */
  dump: string;
}

const KEY = Symbol.for('qless.test.pgliteTemplate');
type Holder = { [KEY]?: Promise<{ template: PgliteTemplate; folder: string }> };

/**
 * The run's one migrated PGlite, made by whichever global setup asks first (api-pglite or the
 * browser project) and shared by both through the main process: a PGlite migration costs
 * about 5 s of a start-up phase where little else runs (decision 117). Removed at teardown.
 */
export async function pgliteTemplate(): Promise<PgliteTemplate> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const folder = await mkdtemp(join(tmpdir(), 'qless-test-pglite-'));
    const database = await openDatabase({ databaseUrl: null, dataDir: folder });
    try {
      await migrateToLatest(database.db);
      const dump = await database.dumpDataDir?.();
      if (!dump) throw new Error('PGlite gave no dump of its data folder');
      await writeFile(join(folder, 'pglite.tar'), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await database.close();
    }
    return {
      folder,
      template: { dataDir: join(folder, 'pglite'), dump: join(folder, 'pglite.tar') },
    };
  })();
  return (await holder[KEY]).template;
}

/** Teardown: removes the template (either project's teardown; the second finds nothing). */
export async function removePgliteTemplate(): Promise<void> {
  const made = (globalThis as Holder)[KEY];
  if (!made) return;
  const { folder } = await made;
  await rm(folder, { recursive: true, force: true });
}
