import type { Role } from '@qless/contract';
import type { Db, UserRow } from '../../db/schema.js';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewUser {
  email: string;
  name?: string;
  role: Role;
  organizationId: string | null;
  /** argon2id hash, or null for an invited person who has yet to choose a password. */
  passwordHash: string | null;
  now: Date;
}

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      email: normalizeEmail(user.email),
      name: user.name ?? '',
      role: user.role,
      organization_id: user.organizationId,
      password_hash: user.passwordHash,
      password_changed_at: user.passwordHash ? user.now : null,
      created_at: user.now,
      updated_at: user.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setPasswordHash(
  db: Db,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
