import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L or U: easy to read aloud and to type from a printed ticket. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

function pick(n: number): string {
  let out = '';
  for (let i = 0; i < n; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/**
 * A human code such as "QL-7K4M-2QAB-XC9D": 12 letters of 30, 30¹² ≈ 5·10¹⁷ (59 bits), so
 * that even at the global look-up limit a guess finds a live ticket once in millennia.
 * Unique in the database.
 */
export function generateTicketCode(): string {
  return `QL-${pick(4)}-${pick(4)}-${pick(4)}`;
}

/** Today's codes and the shorter ones of tickets issued before (see the contract). */
export { TICKET_CODE_PATTERN } from '@qless/contract';
