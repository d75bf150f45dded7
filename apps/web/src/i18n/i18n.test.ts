import { describe, expect, it } from 'vitest';
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
