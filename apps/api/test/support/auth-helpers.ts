import type { Role } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { hashPassword } from '../../src/core/access/passwords.js';
import { insertUser } from '../../src/core/access/users.repository.js';
import type { DB } from '../../src/db/schema.js';

export const TEST_PASSWORD = 'a long test passphrase';
let hashed: Promise<string> | null = null;

/** An account with TEST_PASSWORD (hashed once per test file: argon2id costs ~90 ms). */
export async function createUser(
  db: Kysely<DB>,
  user: { email: string; role: Role; organizationId?: string | null; name?: string },
): Promise<{ id: string; email: string }> {
  hashed ??= hashPassword(TEST_PASSWORD);
  const row = await insertUser(db, {
    email: user.email,
    name: user.name ?? '',
    role: user.role,
    organizationId: user.organizationId ?? null,
    passwordHash: await hashed,
    now: new Date(),
  });
  return { id: row.id, email: row.email };
}

/** Signs in over the API and returns the bearer token. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password = TEST_PASSWORD,
  ip = '10.9.9.9',
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress: ip,
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${email}: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An account of `role` signed in; its bearer headers. */
export async function signedIn(
  app: FastifyInstance,
  db: Kysely<DB>,
  user: { email: string; role: Role; organizationId?: string | null },
): Promise<{ id: string; headers: { authorization: string }; token: string }> {
  const { id } = await createUser(db, user);
  const token = await signIn(app, user.email);
  return { id, token, headers: bearer(token) };
}
