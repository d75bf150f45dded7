import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * A backup or restore that cannot go on, for a reason the operator can act on: the CLI prints
 * the message as one line (no stack) and exits 2. Messages never hold a password or a key.
 */
export class BackupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackupError';
  }
}

/** Runs a tool (pg_dump, pg_restore, tar); rejects with its last lines of stderr. */
export function runTool(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      reject(
        new BackupError(
          e.code === 'ENOENT'
            ? `${command} was not found on PATH (install the PostgreSQL client tools of the server's major version, or tar)`
            : `${command} could not start: ${e.message}`,
          { cause: e },
        ),
      );
    });
    child.on('close', (code) => {
      if (code === 0) return resolve(out);
      const tail = err.trim().split('\n').slice(-3).join(' | ');
      reject(new BackupError(`${command} failed (exit ${code}): ${tail || 'no message'}`));
    });
  });
}

/** The sha256 (hex) and size of a file, read as a stream (a dump may be large). */
export async function fileDigest(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex'), bytes: (await stat(file)).size };
}

/**
 * What pg_dump and pg_restore need to reach a database, with the password in the
 * environment (PGPASSWORD) rather than on the command line, where `ps` shows it.
 */
export function pgConnection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** host:port/database of a connection string, never its user or password (for messages). */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return '(unparsable database URL)';
  }
}

/** The tar entries an uploads archive may hold: the folder and our generated file names. */
const UPLOAD_ENTRY = /^uploads\/?$|^uploads\/[0-9a-f]{32}\.(png|jpg|webp)$/;

/** Archives DATA_DIR/uploads (an empty archive when the folder does not exist). */
export async function tarUploads(dataDir: string, file: string, exists: boolean): Promise<void> {
  await runTool(
    'tar',
    exists
      ? ['--create', '--file', file, '--directory', dataDir, 'uploads']
      : ['--create', '--file', file, '--files-from', '/dev/null'],
  );
}

/** Lists an uploads archive and refuses any entry that is not one of our upload files. */
export async function uploadEntries(file: string): Promise<string[]> {
  const entries = (await runTool('tar', ['--list', '--file', file]))
    .split('\n')
    .filter((line) => line !== '');
  const odd = entries.find((entry) => !UPLOAD_ENTRY.test(entry));
  if (odd !== undefined) {
    throw new BackupError(`the uploads archive holds an unexpected entry (${odd}); not restored`);
  }
  return entries.filter((entry) => entry.startsWith('uploads/') && entry !== 'uploads/');
}

export async function untarUploads(file: string, dataDir: string): Promise<void> {
  await runTool('tar', [
    '--extract',
    '--file',
    file,
    '--directory',
    dataDir,
    '--no-same-owner',
    '--no-same-permissions',
  ]);
}
