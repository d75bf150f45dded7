import { hash, verify } from '@node-rs/argon2';

/** OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane. */
const OPTIONS = {
  // Algorithm.Argon2id (a const enum, which isolated modules cannot read).
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | null = null;

/**
 * Checks a password against a stored hash. With no hash (unknown e-mail, account not yet
 * activated) it still runs one argon2id verification against a throw-away hash, so the
 * answer takes as long whether or not the account exists.
 */
export async function checkPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('qless-no-such-account');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
