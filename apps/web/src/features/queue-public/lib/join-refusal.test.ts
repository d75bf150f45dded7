import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { ApiError } from '../../../lib/api-client';
import { joinRefusalKey } from './join-refusal';

describe('the join page refused by the organization’s ceilings (decision 125)', () => {
  it('a busy minute: its own words in both languages, not the general “too many requests”', () => {
    const key = joinRefusalKey(new ApiError(429, 'QUEUE_JOINS_BUSY', 'busy', [], 42));
    expect(key).toBe('queue.join.error.QUEUE_JOINS_BUSY');
    expect(en[key]).toMatch(/wait a minute/);
    expect(fr[key]).toMatch(/Patientez une minute/);
    expect(en[key]).not.toBe(en['error.RATE_LIMITED']);
  });

  it('a line full of joins from the poster: go to the reception, in both languages', () => {
    const key = joinRefusalKey(new ApiError(409, 'SELF_JOIN_LINE_FULL', 'full'));
    expect(key).toBe('queue.join.error.SELF_JOIN_LINE_FULL');
    expect(en[key]).toMatch(/reception/);
    expect(fr[key]).toMatch(/accueil/);
  });

  it('a wrong code from the hall: read the screen again, in both languages (decision 125)', () => {
    const key = joinRefusalKey(new ApiError(403, 'JOIN_CODE_INVALID', 'wrong'));
    expect(key).toBe('queue.join.error.JOIN_CODE_INVALID');
    expect(en[key]).toMatch(/code on the screen in the hall/);
    expect(fr[key]).toMatch(/code affiché en ce moment sur l’écran de la salle/);
    // Too many wrong codes: wait, or the reception; not the general words.
    const spent = joinRefusalKey(new ApiError(429, 'TOO_MANY_JOIN_CODE_TRIES', 'x', [], 300));
    expect(spent).toBe('queue.join.error.TOO_MANY_JOIN_CODE_TRIES');
    expect(en[spent]).toMatch(/wrong codes.*reception/);
    expect(fr[spent]).toMatch(/codes erronés.*accueil/);
  });

  it('the other refusals keep their words', () => {
    expect(joinRefusalKey(new ApiError(429, 'TOO_MANY_VISITS', 'x'))).toBe(
      'queue.join.error.TOO_MANY_VISITS',
    );
    expect(joinRefusalKey(new ApiError(429, 'RATE_LIMITED', 'x'))).toBe('error.RATE_LIMITED');
    expect(joinRefusalKey(new ApiError(0, null, 'offline'))).toBe('error.network');
    expect(joinRefusalKey(new Error('x'))).toBe('error.generic');
  });
});
