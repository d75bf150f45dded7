import { existsSync } from 'node:fs';
import pg from 'pg';
import { adminUrl } from './run-databases.js';

/**
 * What `npm test` needs from the machine, checked once before any file runs: a newcomer who
 * lacks one reads a line saying what is missing and how to provide it, not a stack of
 * `ECONNREFUSED` from every file.
 */
export class MissingPrerequisite extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingPrerequisite';
    // Vitest prints an error's stack; this one's only line is the message.
    this.stack = `${this.name}: ${message}`;
  }
}

/** The URL without its password, for a message (a PostgreSQL or Redis URL). */
export function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

export async function requirePostgres(url: string = adminUrl): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new MissingPrerequisite(
      `npm test needs PostgreSQL at ${shown(url)} (${reason}): start it (Debian: pg_ctlcluster 15 main start; user postgres, trust auth) or point TEST_POSTGRES_URL at one.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function requireChromium(path: string): void {
  if (existsSync(path)) return;
  throw new MissingPrerequisite(
    `The browser tests need Debian's Chromium at ${path}: apt-get install -y chromium chromium-headless-shell, or set CHROMIUM_PATH to a Chromium binary (never a downloaded browser).`,
  );
}
