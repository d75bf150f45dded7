import { randomBytes } from 'node:crypto';
import type { Db } from './schema.js';

/**
 * A secret generated once and kept in the database, so every process of a deployment
 * shares it and it survives restarts. The first writer wins; others read its value.
 */
export async function getOrCreateSecret(db: Db, name: string): Promise<string> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
