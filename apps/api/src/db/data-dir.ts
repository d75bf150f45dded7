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
 * Makes `root` and everything under it private to this user: folders 0700, files 0600.
 * PGlite writes its files 0666 whatever the umask (the WAL holds the ticket-signing key and
 * customers' data), so this runs before PGlite opens (repairing what an earlier run left)
 * and again after (what it just wrote). Files PGlite creates later while running are
 * 0666 again, but inside a 0700 folder nobody else can reach them; the next start tightens
 * them. Returns how many entries had to be changed; a folder we cannot chmod (owned by
 * someone else) is refused with one clear line.
 */
export async function makePrivate(root: string): Promise<number> {
  await mkdir(root, { recursive: true, mode: DIR_MODE });
  let changed = 0;
  const visit = async (p: string): Promise<void> => {
    const st = await lstat(p);
    // A symlink's mode means nothing and following it could chmod files outside the folder.
    if (st.isSymbolicLink()) return;
    const wanted = st.isDirectory() ? DIR_MODE : FILE_MODE;
    if ((st.mode & 0o777) !== wanted) {
      try {
        await chmod(p, wanted);
      } catch (err) {
        throw new DataDirError(
          `Data folder ${root} is readable by others and cannot be made private (${p}: ${(err as Error).message}); fix its owner or choose another DATA_DIR`,
          { cause: err },
        );
      }
      changed += 1;
    }
    if (st.isDirectory()) {
      for (const name of await readdir(p)) await visit(path.join(p, name));
    }
  };
  await visit(root);
  return changed;
}
