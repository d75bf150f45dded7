import { randomBytes } from 'node:crypto';
import type { Db } from './schema.js';

/**
 * A secret generated once and kept in the database, so every process of a deployment
 * shares it and it survives restarts. The first writer wins; others read its value.
 */
export function getOrCreateSecret(db: Db, name: string): Promise<string> {
  return getOrCreateSecretWith(db, name, async () => randomBytes(32).toString('base64url'));
}

/** As getOrCreateSecret, for a secret of another form (e.g. a private JWK as JSON). */
export async function getOrCreateSecretWith(
  db: Db,
  name: string,
  make: () => Promise<string>,
): Promise<string> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: await make() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** A secret that exists already, or null (never creates one). */
export async function readSecret(db: Db, name: string): Promise<string | null> {
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value ?? null;
}
