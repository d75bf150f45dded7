import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export class DataDirError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DataDirError';
  }
}

/**
 * Makes the data folder private to this user: `folder` itself 0700 and everything in
 * `tree` (the embedded database, inside it) folders 0700, files 0600. Only `tree` is
 * walked: DATA_DIR may be a folder holding other things (even `.`), whose files are not ours
 * to change. PGlite writes its files 0666 whatever the umask (the WAL holds the
 * ticket-signing key and customers' data), so this runs before PGlite opens (repairing what
 * an earlier run left) and again after (what it just wrote). Files PGlite creates later
 * while running are 0666 again, but inside a 0700 folder nobody else can reach them; close
 * and the next start tighten them. Returns how many entries had to be changed; an entry we
 * cannot chmod (owned by someone else) is refused with one clear line.
 */
export async function makePrivate(folder: string, tree: string): Promise<number> {
  await mkdir(tree, { recursive: true, mode: DIR_MODE });
  let changed = 0;
  const tighten = async (p: string, mode: number): Promise<void> => {
    try {
      await chmod(p, mode);
    } catch (err) {
      throw new DataDirError(
        `Data folder ${folder} is open to other users and cannot be made private (${p}: ${(err as Error).message}); fix its owner or choose another DATA_DIR`,
        { cause: err },
      );
    }
    changed += 1;
  };
  const visit = async (p: string, recurse: boolean): Promise<void> => {
    const st = await lstat(p);
    // A symlink's mode means nothing and following it could chmod files outside the folder.
    if (st.isSymbolicLink()) return;
    const wanted = st.isDirectory() ? DIR_MODE : FILE_MODE;
    if ((st.mode & 0o777) !== wanted) await tighten(p, wanted);
    if (recurse && st.isDirectory()) {
      for (const name of await readdir(p)) await visit(path.join(p, name), true);
    }
  };
  await visit(folder, false);
  await visit(tree, true);
  return changed;
}
