import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST } from './manifest.js';

/** `qless-20261127T013000Z`: a finished backup. Being written: the same + `.partial`. */
const NAME = /^qless-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const PARTIAL = /^qless-\d{8}T\d{6}Z\.partial$/;

/** A backup folder's name for an instant (UTC, to the second). */
export function backupName(at: Date): string {
  return `qless-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}`;
}

/** The instant a backup folder's name says, or null for any other name. */
export function backupTime(name: string): Date | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

/** Monday of the instant's ISO week (UTC), as yyyy-mm-dd. */
function weekOf(at: Date): string {
  const day = (at.getUTCDay() + 6) % 7;
  return new Date(at.getTime() - day * 86_400_000).toISOString().slice(0, 10);
}

export interface Retention {
  /** The newest backup of each of the last N days that have one. */
  daily: number;
  /** The newest backup of each of the last N ISO weeks that have one. */
  weekly: number;
}

export const DEFAULT_RETENTION: Retention = { daily: 14, weekly: 8 };

/**
 * Which backups to keep: the newest of each of the last `daily` days with a backup, and the
 * newest of each of the last `weekly` weeks with one (the newest backup is always kept).
 * Days and weeks are UTC: the timer runs at 01:30 UTC, 02:30 in Douala, the same day.
 */
export function backupsToKeep(names: string[], retention: Retention): Set<string> {
  const dated = names
    .map((name) => ({ name, at: backupTime(name) }))
    .filter((b): b is { name: string; at: Date } => b.at !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime());
  const keep = new Set<string>();
  const pick = (count: number, bucket: (at: Date) => string) => {
    const seen = new Set<string>();
    for (const b of dated) {
      const key = bucket(b.at);
      if (seen.has(key)) continue;
      if (seen.size >= count) break;
      seen.add(key);
      keep.add(b.name);
    }
  };
  pick(retention.daily, (at) => at.toISOString().slice(0, 10));
  pick(retention.weekly, weekOf);
  if (dated[0]) keep.add(dated[0].name);
  return keep;
}

/**
 * Deletes the finished backups in `dir` that `backupsToKeep` does not keep, and folders of
 * backups that failed half-way (`.partial`) older than a day. Touches no other file.
 */
export async function pruneBackups(
  dir: string,
  retention: Retention,
  now: Date,
): Promise<{ kept: string[]; removed: string[] }> {
  const entries = await readdir(dir, { withFileTypes: true });
  const finished: string[] = [];
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    if (backupTime(entry.name)) {
      // A folder without its manifest is not a backup we made: leave it to a human.
      const manifest = await stat(path.join(dir, entry.name, MANIFEST)).catch(() => null);
      if (manifest) finished.push(entry.name);
    } else if (PARTIAL.test(entry.name)) {
      const { mtimeMs } = await stat(path.join(dir, entry.name));
      if (now.getTime() - mtimeMs > 86_400_000) {
        await rm(path.join(dir, entry.name), { recursive: true, force: true });
        removed.push(entry.name);
      }
    }
  }
  const keep = backupsToKeep(finished, retention);
  for (const name of finished) {
    if (keep.has(name)) continue;
    await rm(path.join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return { kept: [...keep].sort(), removed: removed.sort() };
}
