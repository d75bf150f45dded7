import { randomInt } from 'node:crypto';
import { FOLLOW_CODE_ALPHABET } from '@qless/contract';

/**
 * `length` characters of Crockford's base 32 drawn at random (node's CSPRNG): a slip's follow
 * code, a booking's short link (decisions 135, 141).
 */
export function randomShortCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += FOLLOW_CODE_ALPHABET[randomInt(32)];
  return code;
}
