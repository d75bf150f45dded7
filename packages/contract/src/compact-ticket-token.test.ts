import { describe, expect, it } from 'vitest';
import { compactTicketMessage, parseCompactTicketToken } from './checkin-codes.js';

const SIGNATURE = `${'A'.repeat(85)}w`;

describe('compact ticket tokens (the QR of tickets)', () => {
  it('reads the code and the signature of a compact token, new and short codes', () => {
    expect(parseCompactTicketToken(`QL-7K4M-2QAB-XC9D.${SIGNATURE}`)).toEqual({
      code: 'QL-7K4M-2QAB-XC9D',
      signature: SIGNATURE,
    });
    expect(parseCompactTicketToken(` QL-7K4M-2Q.${SIGNATURE}\n`)?.code).toBe('QL-7K4M-2Q');
  });
  it('is not a JWT, a link, a typed code, nor a token with a bad code or signature', () => {
    for (const text of [
      'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln',
      `https://qless.cm/#/ticket/QL-7K4M-2QAB-XC9D?t=QL-7K4M-2QAB-XC9D.${SIGNATURE}`,
      'QL-7K4M-2QAB-XC9D',
      `QL-7K4M-2QAB-XC9O.${SIGNATURE}`,
      `ql-7k4m-2qab-xc9d.${SIGNATURE}`,
      `QL-7K4M-2QAB-XC9D.${SIGNATURE}A`,
      `QL-7K4M-2QAB-XC9D.${SIGNATURE.slice(1)}=`,
    ]) {
      expect(parseCompactTicketToken(text), text).toBeNull();
    }
  });
  it('signs the code under a label of its own', () => {
    expect(String.fromCharCode(...compactTicketMessage('QL-7K4M-2Q'))).toBe(
      'qless-ticket:QL-7K4M-2Q',
    );
  });
});
