import { describe, expect, it } from 'vitest';
import { attentionReason, pluralOf, WEEK, weekdayName } from './labels';

describe('weekdayName', () => {
  it('counts from Sunday', () => {
    expect(weekdayName(0, 'en-GB', 'long')).toBe('Sunday');
    expect(weekdayName(6, 'en-GB', 'long')).toBe('Saturday');
    expect(weekdayName(1, 'fr-FR', 'long')).toBe('lundi');
  });
  it('lists the open days Monday first, in French and in English', () => {
    expect(WEEK.map((d) => weekdayName(d, 'fr-CM', 'long'))).toEqual([
      'lundi',
      'mardi',
      'mercredi',
      'jeudi',
      'vendredi',
      'samedi',
      'dimanche',
    ]);
    expect(weekdayName(WEEK[0], 'en-CM', 'short')).toBe('Mon');
  });
});

describe('attentionReason', () => {
  const t = (key: string) => `[${key}]`;
  it('translates the known reasons and shows others as sent', () => {
    expect(attentionReason('outside_hours', t)).toBe('[attention.outside_hours]');
    expect(attentionReason('The slot moved', t)).toBe('The slot moved');
    expect(attentionReason('toString', t)).toBe('toString');
  });
});

describe('pluralOf', () => {
  it('follows each language', () => {
    expect(pluralOf(1, 'en-GB')).toBe('one');
    expect(pluralOf(0, 'en-GB')).toBe('other');
    expect(pluralOf(0, 'fr-FR')).toBe('one');
    expect(pluralOf(2, 'fr-FR')).toBe('other');
  });
});
