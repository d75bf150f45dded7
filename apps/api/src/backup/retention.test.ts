import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupName, backupsToKeep, backupTime, pruneBackups } from './retention.js';

/** One backup a night at 01:30 UTC for `days` nights ending on `last` (newest first). */
function nightly(last: string, days: number): string[] {
  const end = Date.parse(`${last}T01:30:00Z`);
  return Array.from({ length: days }, (_, i) => backupName(new Date(end - i * 86_400_000)));
}

describe('backup retention', () => {
  it('names a backup by its UTC second and reads the name back', () => {
    const at = new Date('2026-11-27T01:30:05.123Z');
    expect(backupName(at)).toBe('qless-20261127T013005Z');
    expect(backupTime('qless-20261127T013005Z')?.toISOString()).toBe('2026-11-27T01:30:05.000Z');
    expect(backupTime('qless-20261127T013005Z.partial')).toBeNull();
    expect(backupTime('notes.txt')).toBeNull();
  });

  it('keeps 14 nights and one backup for each of 8 weeks out of 100 nights', () => {
    // 2026-11-27 is a Friday.
    const names = nightly('2026-11-27', 100);
    const keep = backupsToKeep(names, { daily: 14, weekly: 8 });
    // The last 14 nights, then the newest of each earlier week: the Sundays of the weeks.
    const daily = names.slice(0, 14);
    for (const name of daily) expect(keep.has(name)).toBe(true);
    const weekly = [...keep].filter((n) => !daily.includes(n)).sort();
    // Weeks of Nov 23 (Fri 27), 16, 9 (inside the 14 days) … then 5 older Sundays.
    expect(weekly).toEqual([
      'qless-20261011T013000Z',
      'qless-20261018T013000Z',
      'qless-20261025T013000Z',
      'qless-20261101T013000Z',
      'qless-20261108T013000Z',
    ]);
    expect(keep.size).toBe(19);
  });

  it('keeps the newest of a day with several backups, and always the newest', () => {
    const names = ['qless-20261127T013000Z', 'qless-20261127T120000Z', 'qless-20261126T013000Z'];
    expect([...backupsToKeep(names, { daily: 1, weekly: 1 })]).toEqual(['qless-20261127T120000Z']);
  });
});

describe('pruneBackups', () => {
  let dir = '';
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('removes what retention drops and stale half-backups, and nothing else', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qless-prune-'));
    const names = nightly('2026-11-27', 20);
    for (const name of names) {
      await mkdir(path.join(dir, name));
      await writeFile(path.join(dir, name, 'manifest.json'), '{}');
    }
    // No manifest: not ours to judge. A fresh .partial may be a backup being written.
    await mkdir(path.join(dir, 'qless-20260101T013000Z'));
    await mkdir(path.join(dir, 'qless-20261127T020000Z.partial'));
    const stale = path.join(dir, 'qless-20261120T013000Z.partial');
    await mkdir(stale);
    const old = new Date('2026-11-20T02:00:00Z');
    await utimes(stale, old, old);
    await writeFile(path.join(dir, 'notes.txt'), 'the operator’s own file');

    const { kept, removed } = await pruneBackups(
      dir,
      { daily: 7, weekly: 2 },
      new Date('2026-11-27T02:00:00Z'),
    );
    expect(kept).toEqual(names.slice(0, 7).sort());
    expect(removed).toHaveLength(20 - 7 + 1);
    expect(removed).toContain('qless-20261120T013000Z.partial');
    expect((await readdir(dir)).sort()).toEqual(
      [
        ...names.slice(0, 7),
        'notes.txt',
        'qless-20260101T013000Z',
        'qless-20261127T020000Z.partial',
      ].sort(),
    );
  });
});
