import { mobileOperator, normalizeCameroonMobile } from '@qless/contract/core';
import { describe, expect, it } from 'vitest';
import { isEmail, ussdCodeFor } from './phone';

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

describe('isEmail', () => {
  it('checks the basic shape', () => {
    expect(isEmail('a@b.cm')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
    expect(isEmail('a b@c.cm')).toBe(false);
  });
});

// Seen in a trial: "Dial *126#" (MTN's code) was shown to Orange Money payers.
describe('mobileOperator and ussdCodeFor', () => {
  it('names MTN for 67x, 650–654 and 680–683, in any form the form accepts', () => {
    for (const phone of ['677123456', '+237 670 000 000', '650111222', '654999999', '680000000']) {
      expect(mobileOperator(phone), phone).toBe('MTN');
      expect(ussdCodeFor(phone), phone).toBe('*126#');
    }
    expect(ussdCodeFor('683 123 456')).toBe('*126#');
  });
  it('names Orange for 69x, 655–659 and 685–689: #150#, never *126#', () => {
    for (const phone of ['699555010', '+237690000000', '655123456', '659000000', '685000000']) {
      expect(mobileOperator(phone), phone).toBe('ORANGE');
      expect(ussdCodeFor(phone), phone).toBe('#150#');
    }
    expect(ussdCodeFor('00237 689 123 456')).toBe('#150#');
  });
  it('shows no code for another operator, a range not allocated or no number', () => {
    for (const phone of [
      '661234567',
      '620123456',
      '684000000',
      '640000000',
      '',
      'abc',
      '777123456',
    ]) {
      expect(mobileOperator(phone), phone).toBeNull();
      expect(ussdCodeFor(phone), phone).toBeNull();
    }
  });
});
