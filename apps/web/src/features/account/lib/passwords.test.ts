import { PASSWORD_MIN_LENGTH } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN, passwordProblem } from './passwords';

describe('passwordProblem', () => {
  it('uses the same minimum length as the server', () => {
    expect(PASSWORD_MIN).toBe(PASSWORD_MIN_LENGTH);
  });
  it('asks for a longer password first, then for the same one twice', () => {
    expect(passwordProblem('short', 'other')).toBe('tooShort');
    expect(passwordProblem('long enough pw', 'long enough pv')).toBe('mismatch');
    expect(passwordProblem('long enough pw', 'long enough pw')).toBeNull();
    expect(passwordProblem('0123456789', '0123456789')).toBeNull();
  });
});
