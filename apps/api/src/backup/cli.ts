/**
 * The `backup` and `restore` commands (npm run backup / npm run restore, or the bundled CLI's
 * subcommands): argument parsing, one line per outcome, exit codes. Exit 2: refused for a
 * reason the message states (bad arguments, a damaged backup, a non-empty target, a running
 * embedded server); 1: a failure. Never prints a password, a key or a connection string.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { systemClock } from '../core/clock.js';
import { createBackup } from './backup.js';
import { restoreBackup } from './restore.js';
import { DEFAULT_RETENTION, pruneBackups } from './retention.js';
import { BackupError } from './tools.js';

const BACKUP_USAGE =
  'usage: backup [--prune] [--keep-daily N] [--keep-weekly N]   (BACKUP_DIR, default ./backups)';
const RESTORE_USAGE =
  'usage: restore --from <backup folder> [--into <postgres:// URL of an empty database | new DATA_DIR>] [--force]';

class UsageError extends Error {}

/** Where the commands read settings and write lines (tests pass their own). */
export interface CliIo {
  env?: Record<string, string | undefined>;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

function config(env: Record<string, string | undefined>): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}

function count(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new UsageError(`--${name} must be 1 to 1000`);
  return n;
}

async function guarded(
  name: string,
  usage: string,
  run: () => Promise<void>,
  log: (line: string) => void,
): Promise<number> {
  // Files made by pg_dump and tar are private from the start, not only after our chmod.
  let umask: number | null = null;
  try {
    umask = process.umask(0o077);
  } catch {
    // A worker thread cannot change it; every file is chmod-ed 0600 anyway.
  }
  try {
    await run();
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      log(`${name}: ${err.message}\n${usage}`);
      return 2;
    }
    if (err instanceof BackupError) {
      log(`${name}: ${err.message}`);
      return 2;
    }
    log(`${name}: ${(err as Error).message}`);
    return 1;
  } finally {
    if (umask !== null) process.umask(umask);
  }
}

export function runBackupCli(argv: string[], io: CliIo = {}): Promise<number> {
  const { env = process.env, out = console.log, err = console.error } = io;
  return guarded(
    'backup',
    BACKUP_USAGE,
    async () => {
      let values: { prune?: boolean; 'keep-daily'?: string; 'keep-weekly'?: string };
      try {
        ({ values } = parseArgs({
          args: argv,
          options: {
            prune: { type: 'boolean' },
            'keep-daily': { type: 'string' },
            'keep-weekly': { type: 'string' },
          },
          strict: true,
        }));
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      const retention = {
        daily: count(values['keep-daily'], DEFAULT_RETENTION.daily, 'keep-daily'),
        weekly: count(values['keep-weekly'], DEFAULT_RETENTION.weekly, 'keep-weekly'),
      };
      const c = config(env);
      const started = performance.now();
      const { folder, manifest } = await createBackup({
        databaseUrl: c.databaseUrl,
        dataDir: c.dataDir,
        backupDir: c.backupDir,
        legacyKeyInEnvironment: c.payments.ticketSigningKey !== null,
        now: systemClock.now(),
      });
      const bytes = manifest.parts.reduce((sum, p) => sum + p.bytes, 0);
      out(
        `Backup ${folder} (${manifest.engine}, migration ${manifest.migration}, ${manifest.counts.bookings} bookings, ${manifest.upload_files} uploads, ${(bytes / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`,
      );
      if (manifest.ticket_keys.legacy_verify === 'environment') {
        out(
          'TICKET_SIGNING_KEY is set: keep it with your secrets; a restore needs the same value (it is not in the backup).',
        );
      }
      if (values.prune) {
        const { kept, removed } = await pruneBackups(c.backupDir, retention, systemClock.now());
        out(
          `Pruned ${removed.length} backup(s) of ${c.backupDir}; ${kept.length} kept (${retention.daily} daily, ${retention.weekly} weekly)`,
        );
      }
    },
    err,
  );
}

export function runRestoreCli(argv: string[], io: CliIo = {}): Promise<number> {
  const { env = process.env, out = console.log, err = console.error } = io;
  return guarded(
    'restore',
    RESTORE_USAGE,
    async () => {
      let values: { from?: string; into?: string; force?: boolean };
      try {
        ({ values } = parseArgs({
          args: argv,
          options: {
            from: { type: 'string' },
            into: { type: 'string' },
            force: { type: 'boolean' },
          },
          strict: true,
        }));
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      if (!values.from) throw new UsageError('--from is required');
      const c = config(env);
      const started = performance.now();
      const result = await restoreBackup({
        from: path.resolve(values.from),
        into: values.into ?? null,
        databaseUrl: c.databaseUrl,
        dataDir: c.dataDir,
        force: values.force === true,
        now: systemClock.now(),
      });
      const m = result.manifest;
      out(
        `Restored ${m.engine} backup of ${m.created_at} (migration ${m.migration}) into ${result.target}: ${m.counts.bookings} bookings, ${m.counts.payments} payments, ${m.counts.users} accounts, ${result.uploads} uploads, in ${Math.round(performance.now() - started)} ms`,
      );
      for (const notice of result.notices) out(notice);
    },
    err,
  );
}
