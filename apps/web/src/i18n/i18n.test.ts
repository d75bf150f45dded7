import { describe, expect, it, vi } from 'vitest';
import { en } from './en';
import { fr } from './fr';
import { detectLocale, interpolate } from './i18n';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n catalogs', () => {
  it('have the same keys in English and French', () => {
    const enKeys = Object.keys(en).sort();
    const frKeys = Object.keys(fr).sort();
    expect(frKeys.filter((k) => !enKeys.includes(k))).toEqual([]);
    expect(enKeys.filter((k) => !frKeys.includes(k))).toEqual([]);
  });

  it('use the same placeholders in both languages', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(fr[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('has no empty message', () => {
    for (const [key, value] of [...Object.entries(en), ...Object.entries(fr)]) {
      expect(value.trim(), key).not.toBe('');
    }
  });
});

describe('detectLocale', () => {
  it('prefers the stored choice', () => {
    expect(detectLocale('fr', ['en-US'])).toBe('fr');
  });
  it('falls back to the browser languages', () => {
    expect(detectLocale(null, ['fr-CM', 'en'])).toBe('fr');
    expect(detectLocale('xx', ['de-DE', 'en-GB'])).toBe('en');
  });
  it('defaults to English', () => {
    expect(detectLocale(null, [])).toBe('en');
  });
});

describe('interpolate', () => {
  it('fills placeholders and leaves unknown ones', () => {
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});

describe('French of the public pages and the booking path', () => {
  const PUBLIC =
    /^(nav|hero|about|footer|common|orgs|services|slots|booking|validation|error|ticket|notFound|lang|picker)\./;
  const publicKeys = (Object.keys(fr) as (keyof typeof fr)[]).filter((k) => PUBLIC.test(k));
  /** Words French shares with English: the same text in both is right for these. */
  const COGNATES = new Set([
    'Service',
    'Services',
    'Date',
    'FAQ',
    '{n} minutes',
    '{fee} {currency}',
  ]);

  it('translates every text (a French text equal to the English one is a leftover)', () => {
    const same = publicKeys.filter((k) => fr[k] === en[k] && !COGNATES.has(en[k]));
    expect(same).toEqual([]);
  });

  it('puts a no-break space before ; : ! ? and inside « »', () => {
    for (const key of publicKeys) {
      // A colon between digits is a time (08:00), not punctuation.
      const text = fr[key].replace(/\d:\d/g, '');
      expect(text, key).not.toMatch(/(?:^|[^\u00a0\u202f])[;!?»]|[^\u00a0\u202f\d]:/);
      expect(text, key).not.toMatch(/«(?![\u00a0\u202f])/);
    }
  });

  it('writes amounts in FCFA, never XAF', () => {
    for (const key of publicKeys) expect(fr[key], key).not.toMatch(/XAF/);
  });

  it('calls the customer’s name "Nom", not a user name', () => {
    expect(fr['booking.username']).toBe('Nom');
    expect(fr['booking.row.username']).toBe('Nom');
  });
});

describe('ensureLocale', () => {
  it('has English at once and loads French on demand, once for concurrent callers', async () => {
    // A module of its own: the unit files share a worker's modules (decision 114), and a
    // component test before this one may have loaded French already.
    vi.resetModules();
    const { ensureLocale, isLocaleLoaded } = await import('./i18n');
    expect(isLocaleLoaded('en')).toBe(true);
    expect(isLocaleLoaded('fr')).toBe(false);
    const first = ensureLocale('fr');
    const second = ensureLocale('fr');
    expect(second).toBe(first);
    await first;
    expect(isLocaleLoaded('fr')).toBe(true);
    await expect(ensureLocale('en')).resolves.toBeUndefined();
  });
});
