import { describe, expect, it } from 'vitest';
import { byDistance, citiesOf, formatDistance, haversineKm, inCity } from './distance';
import { geoFailure } from './use-near-me';

/** Thin and no-break spaces (Intl, French typography) read as plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

// Landmarks with well-known separations.
const DOUALA_AKWA = { latitude: 4.0511, longitude: 9.7003 };
const DOUALA_BONANJO = { latitude: 4.0429, longitude: 9.6889 };
const YAOUNDE_BASTOS = { latitude: 3.8975, longitude: 11.5081 };

describe('haversineKm', () => {
  it('measures great-circle distances', () => {
    expect(haversineKm(DOUALA_AKWA, DOUALA_AKWA)).toBe(0);
    // One degree of latitude is about 111.2 km everywhere.
    expect(haversineKm({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(
      111.19,
      1,
    );
    // Akwa to Bonanjo: about 1.55 km; Douala to Yaoundé as the crow flies: about 202 km.
    expect(haversineKm(DOUALA_AKWA, DOUALA_BONANJO)).toBeCloseTo(1.55, 1);
    const far = haversineKm(DOUALA_AKWA, YAOUNDE_BASTOS);
    expect(far).toBeGreaterThan(200);
    expect(far).toBeLessThan(205);
    // Symmetric, and antipodes are half the circumference (no NaN from rounding).
    expect(haversineKm(YAOUNDE_BASTOS, DOUALA_AKWA)).toBeCloseTo(far, 9);
    expect(
      haversineKm({ latitude: 10, longitude: 20 }, { latitude: -10, longitude: -160 }),
    ).toBeCloseTo(Math.PI * 6371.0088, 3);
  });
});

describe('byDistance', () => {
  const branch = (name: string, at: { latitude: number; longitude: number } | null) => ({
    name,
    latitude: at?.latitude ?? null,
    longitude: at?.longitude ?? null,
  });

  it('puts the nearest first and the ones without coordinates last, in their order', () => {
    const list = [
      branch('unplaced-1', null),
      branch('Bastos', YAOUNDE_BASTOS),
      branch('Bonanjo', DOUALA_BONANJO),
      branch('unplaced-2', null),
      branch('Akwa', DOUALA_AKWA),
    ];
    const sorted = byDistance(list, { latitude: 4.052, longitude: 9.701 });
    expect(sorted.map((s) => s.item.name)).toEqual([
      'Akwa',
      'Bonanjo',
      'Bastos',
      'unplaced-1',
      'unplaced-2',
    ]);
    expect(sorted[0]?.km).toBeLessThan(0.2);
    expect(sorted[3]?.km).toBeNull();
    // From Yaoundé the order turns round; the input is left as it was.
    expect(byDistance(list, YAOUNDE_BASTOS).map((s) => s.item.name)).toEqual([
      'Bastos',
      'Akwa', // east of Bonanjo: nearer Yaoundé
      'Bonanjo',
      'unplaced-1',
      'unplaced-2',
    ]);
    expect(list[0]?.name).toBe('unplaced-1');
  });

  it('keeps the given order for equal distances and for a list with no coordinates', () => {
    const same = [branch('a', DOUALA_AKWA), branch('b', DOUALA_AKWA), branch('c', null)];
    expect(byDistance(same, YAOUNDE_BASTOS).map((s) => s.item.name)).toEqual(['a', 'b', 'c']);
    const none = [branch('x', null), branch('y', null)];
    expect(byDistance(none, DOUALA_AKWA).map((s) => s.item.name)).toEqual(['x', 'y']);
    expect(byDistance([], DOUALA_AKWA)).toEqual([]);
  });
});

describe('formatDistance', () => {
  it('writes metres, then one decimal, then whole kilometres, in each language', () => {
    expect(plain(formatDistance(1.234, 'en-CM'))).toBe('1.2 km');
    expect(plain(formatDistance(1.234, 'fr-CM'))).toBe('1,2 km');
    expect(plain(formatDistance(0.456, 'en-CM'))).toBe('460 m');
    expect(plain(formatDistance(0.001, 'fr-CM'))).toBe('10 m');
    expect(plain(formatDistance(3, 'en-CM'))).toBe('3 km');
    expect(plain(formatDistance(202.4, 'fr-CM'))).toBe('202 km');
    expect(plain(formatDistance(1234.5, 'en-CM'))).toBe('1,235 km');
  });
});

describe('cities', () => {
  it('lists each city once, case and accents aside, alphabetically', () => {
    const list = [
      { city: 'Yaoundé' },
      { city: 'Douala' },
      { city: ' douala ' },
      { city: 'Bafoussam' },
    ];
    expect(citiesOf(list, 'fr-CM')).toEqual(['Bafoussam', 'Douala', 'Yaoundé']);
    expect(inCity({ city: 'Yaoundé' }, 'yaounde', 'fr-CM')).toBe(true);
    expect(inCity({ city: 'Douala' }, 'Yaoundé', 'fr-CM')).toBe(false);
  });
});

describe('geoFailure', () => {
  it('tells a refusal, a timeout and a position not found apart', () => {
    expect([1, 2, 3, 0].map(geoFailure)).toEqual([
      'denied',
      'unavailable',
      'timeout',
      'unavailable',
    ]);
  });
});
