import { describe, expect, it } from 'vitest';
import { normalizeTicketCode } from './checkin-codes.js';

describe('normalizeTicketCode', () => {
  it('takes a typed code in any case, with or without dashes and spaces', () => {
    for (const typed of [
      'QL-7K4M-2QAB-XC9D',
      'ql-7k4m-2qab-xc9d',
      'QL7K4M2QABXC9D',
      ' ql 7k4m 2qab xc9d ',
    ]) {
      expect(normalizeTicketCode(typed), typed).toBe('QL-7K4M-2QAB-XC9D');
    }
    expect(normalizeTicketCode('ql7k4m2q')).toBe('QL-7K4M-2Q');
  });

  it('refuses what no ticket can be: letters outside the alphabet, wrong lengths, no prefix', () => {
    for (const typed of [
      'QL-7K4M-2QAB-XC90',
      'QL-7K4M-2QAB-XC9',
      'XX-7K4M-2QAB-XC9D',
      'QL-OK4M-2QAB-XC9D',
      '',
      'QL',
    ]) {
      expect(normalizeTicketCode(typed), typed).toBeNull();
    }
  });
});
