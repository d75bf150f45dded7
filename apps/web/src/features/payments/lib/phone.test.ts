import { normalizeCameroonMobile } from '@qless/contract/core';
import { describe, expect, it } from 'vitest';
import { formatLocalPhone, isEmail } from './phone';

// The booking form checks the number with the contract's own rule, before any request.
describe('normalizeCameroonMobile, as the booking form uses it', () => {
  it('prefixes a 9-digit number starting with 6 with +237', () => {
    expect(normalizeCameroonMobile('677123456')).toBe('+237677123456');
    expect(normalizeCameroonMobile(' 677 12 34 56 ')).toBe('+237677123456');
    expect(normalizeCameroonMobile('677-123-456')).toBe('+237677123456');
  });
  it('accepts a pasted country code', () => {
    expect(normalizeCameroonMobile('+237 677 123 456')).toBe('+237677123456');
    expect(normalizeCameroonMobile('00237677123456')).toBe('+237677123456');
  });
  it('rejects anything that is not 9 digits starting with 6', () => {
    for (const bad of ['', '67712345', '6771234567', '777123456', '67712345a', '+33612345678']) {
      expect(normalizeCameroonMobile(bad), bad).toBeNull();
    }
  });
});

describe('formatLocalPhone', () => {
  it('groups digits by three', () => {
    expect(formatLocalPhone('+237677123456')).toBe('677 123 456');
    expect(formatLocalPhone('677123456')).toBe('677 123 456');
  });
});

describe('isEmail', () => {
  it('checks the basic shape', () => {
    expect(isEmail('a@b.cm')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
    expect(isEmail('a b@c.cm')).toBe(false);
  });
});
