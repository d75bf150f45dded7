import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { interpolate, type Params } from '../../../i18n/i18n';
import {
  estimateText,
  ordinal,
  positionText,
  spelledNumber,
  spokenCall,
  waitingText,
} from './turn-text';

const tEn = (key: keyof typeof en, params?: Params) => interpolate(en[key], params);
const tFr = (key: keyof typeof en, params?: Params) => interpolate(fr[key], params);

describe('ordinal', () => {
  it('writes English ordinals, 11th–13th included', () => {
    const cases: [number, string][] = [
      [1, '1st'],
      [2, '2nd'],
      [3, '3rd'],
      [4, '4th'],
      [10, '10th'],
      [11, '11th'],
      [12, '12th'],
      [13, '13th'],
      [21, '21st'],
      [22, '22nd'],
      [23, '23rd'],
      [101, '101st'],
      [111, '111th'],
      [112, '112th'],
    ];
    for (const [n, text] of cases) expect(ordinal(n, 'en'), String(n)).toBe(text);
  });

  it('writes French ordinals: 1er, then e', () => {
    expect(ordinal(1, 'fr')).toBe('1er');
    expect(ordinal(2, 'fr')).toBe('2e');
    expect(ordinal(4, 'fr')).toBe('4e');
    expect(ordinal(11, 'fr')).toBe('11e');
    expect(ordinal(21, 'fr')).toBe('21e');
  });
});

describe('waitingText', () => {
  const estimate = { min_minutes: 0, max_minutes: 5 };
  it('says counters are not open yet instead of an estimate, in both languages', () => {
    expect(waitingText(tEn, 'en', 1, estimate, false)).toBe(
      'You are 1st\u00a0· Counters are not open yet',
    );
    expect(waitingText(tFr, 'fr', 1, estimate, false)).toBe(
      'Vous êtes le 1er\u00a0· Les guichets ne sont pas encore ouverts',
    );
    expect(waitingText(tEn, 'en', 1, estimate, false)).not.toContain('min');
    expect(waitingText(tEn, 'en', null, null, false)).toBe(
      'You are in line\u00a0· Counters are not open yet',
    );
  });
  it('gives the estimate once a counter is open (or when an older server does not say)', () => {
    expect(waitingText(tEn, 'en', 1, estimate, true)).toBe('You are 1st — about 0–5 min');
    expect(waitingText(tEn, 'en', 2, estimate, undefined)).toBe('You are 2nd — about 0–5 min');
  });
});

describe('positionText', () => {
  const range = { min_minutes: 10, max_minutes: 20 };
  it('says the place and the range in English', () => {
    expect(positionText(tEn, 'en', 4, range)).toBe('You are 4th — about 10–20 min');
    expect(positionText(tEn, 'en', 1, null)).toBe('You are 1st');
  });
  it('says the place and the range in French', () => {
    expect(positionText(tFr, 'fr', 4, range)).toBe('Vous êtes le 4e — environ 10 à 20 min');
    expect(positionText(tFr, 'fr', 1, { min_minutes: 0, max_minutes: 5 })).toBe(
      'Vous êtes le 1er — environ 0 à 5 min',
    );
  });
});

describe('estimateText', () => {
  it('never gives one exact minute unless the range is one', () => {
    expect(estimateText(tEn, { min_minutes: 5, max_minutes: 15 })).toBe('about 5–15 min');
    expect(estimateText(tEn, { min_minutes: 10, max_minutes: 10 })).toBe('about 10 min');
    expect(estimateText(tFr, { min_minutes: 10, max_minutes: 10 })).toBe('environ 10 min');
    expect(estimateText(tEn, { min_minutes: 0, max_minutes: 0 })).toBe('any moment now');
    expect(estimateText(tFr, { min_minutes: 0, max_minutes: 0 })).toBe('d’un instant à l’autre');
  });
});

describe('spokenCall', () => {
  it('says the number as a clerk does, without its zeros, French then English', () => {
    expect(spelledNumber('A-042')).toBe('A 0 4 2');
    expect(spokenCall('A-042', 'Guichet 3')).toEqual({
      fr: 'Le numéro A 42, au guichet 3',
      en: 'Number A 42, counter 3',
    });
    expect(spokenCall('P-001', 'Guichet 2')).toEqual({
      fr: 'Le numéro P 1, au guichet 2',
      en: 'Number P 1, counter 2',
    });
  });
  it('says another counter name as written, after its French article', () => {
    expect(spokenCall('B-007', 'Caisse 2')).toEqual({
      fr: 'Le numéro B 7, à la Caisse 2',
      en: 'Number B 7, Caisse 2',
    });
  });
});
