import { describe, expect, it } from 'vitest';
import { ticketPageUrl, ticketTokenFromScan } from './self-service-codes.js';

describe('ticket page links', () => {
  it('carries the token in the hash and gives it back to a scanner', () => {
    const url = ticketPageUrl('https://qless.cm/', 'QL-7K4M-2QAB-XC9D', { t: 'a.b-c_d.e' });
    expect(url).toBe('https://qless.cm/ticket/QL-7K4M-2QAB-XC9D#t=a.b-c_d.e');
    expect(ticketTokenFromScan(url)).toBe('a.b-c_d.e');
    const both = ticketPageUrl('https://qless.cm', 'QL-7K4M-2QAB-XC9D', { t: 'x.y', k: 'key' });
    expect(both).toBe('https://qless.cm/ticket/QL-7K4M-2QAB-XC9D#t=x.y&k=key');
    expect(ticketTokenFromScan(both)).toBe('x.y');
  });
  it('still reads the token of a hash-route link (tickets printed before decision 112)', () => {
    const old = 'https://qless.cm/#/ticket/QL-7K4M-2QAB-XC9D?t=a.b-c_d.e';
    expect(ticketTokenFromScan(old)).toBe('a.b-c_d.e');
    expect(ticketTokenFromScan('https://qless.cm/#/t=forged')).toBeNull();
  });
  it('reads a bare token as itself and a link without a token as nothing', () => {
    expect(ticketTokenFromScan('  eyJ.abc.def ')).toBe('eyJ.abc.def');
    expect(ticketTokenFromScan('https://qless.cm/#/ticket/QL-7K4M-2QAB-XC9D')).toBeNull();
    expect(ticketTokenFromScan('https://qless.cm/ticket/QL-7K4M-2QAB-XC9D#k=key')).toBeNull();
    expect(ticketTokenFromScan('')).toBeNull();
  });
});
