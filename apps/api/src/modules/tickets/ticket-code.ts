import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L or U: easy to read aloud and to type from a printed ticket. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

function pick(n: number): string {
  let out = '';
  for (let i = 0; i < n; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** A short human code such as "QL-7K4M-2Q" (about 7·10⁸ combinations; unique in the database). */
export function generateTicketCode(): string {
  return `QL-${pick(4)}-${pick(2)}`;
}

export const TICKET_CODE_PATTERN = /^QL-[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{2}$/;
