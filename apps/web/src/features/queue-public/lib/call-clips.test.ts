import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callClips } from './call-clips';

const names = (clips: string[] | null) =>
  clips?.map((c) => c.replace(/^\/voice\/\w+\/|\.ogg$/g, ''));
const PUBLIC = resolve(import.meta.dirname, '../../../../public');

describe('callClips', () => {
  it('says a call as a clerk does, in French and in English', () => {
    expect(names(callClips('P-001', 'Guichet 2', 'fr'))).toEqual([
      'numero',
      'l-p',
      'n-1',
      'guichet',
      'n-2',
    ]);
    expect(names(callClips('A-042', 'Guichet 3', 'en'))).toEqual([
      'numero',
      'l-a',
      'n-40',
      'n-2',
      'guichet',
      'n-3',
    ]);
  });

  it('writes French numbers as French does (et un, soixante-dix, quatre-vingts, cent)', () => {
    const fr = (n: number) => names(callClips(`C-${n}`, 'Guichet 1', 'fr'))?.slice(2, -2);
    expect(fr(21)).toEqual(['n-20', 'et', 'n-1']);
    expect(fr(71)).toEqual(['n-60', 'et', 'n-11']);
    expect(fr(77)).toEqual(['n-60', 'n-17']);
    expect(fr(80)).toEqual(['n-80s']);
    expect(fr(91)).toEqual(['n-80', 'n-11']);
    expect(fr(100)).toEqual(['cent']);
    expect(fr(305)).toEqual(['n-3', 'cent', 'n-5']);
    expect(fr(999)).toEqual(['n-9', 'cent', 'n-80', 'n-19']);
  });

  it('writes English numbers the British way', () => {
    const en = (n: number) => names(callClips(`C-${n}`, 'Guichet 1', 'en'))?.slice(2, -2);
    expect(en(13)).toEqual(['n-13']);
    expect(en(70)).toEqual(['n-70']);
    expect(en(105)).toEqual(['n-1', 'hundred', 'and', 'n-5']);
    expect(en(340)).toEqual(['n-3', 'hundred', 'and', 'n-40']);
  });

  it('has no clips for a counter named otherwise, or a number it cannot say', () => {
    expect(callClips('B-007', 'Caisse 2', 'fr')).toBeNull();
    expect(callClips('B-000', 'Guichet 2', 'fr')).toBeNull();
    expect(callClips('B7', 'Guichet 2', 'fr')).not.toBeNull();
    expect(callClips('??', 'Guichet 2', 'en')).toBeNull();
  });

  it('uses only clips the generator made, for every number and counter 1–999', () => {
    for (const lang of ['fr', 'en'] as const) {
      const made = new Set(readdirSync(join(PUBLIC, 'voice', lang)));
      const used = new Set<string>();
      for (let n = 1; n <= 999; n++) {
        for (const clip of callClips(`Z-${n}`, `Guichet ${n}`, lang) ?? []) used.add(clip);
      }
      for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
        for (const clip of callClips(`${letter}-1`, 'Guichet 1', lang) ?? []) used.add(clip);
      }
      const missing = [...used].map((c) => c.split('/').at(-1)).filter((f) => !made.has(f ?? ''));
      expect(missing, lang).toEqual([]);
    }
  });
});
