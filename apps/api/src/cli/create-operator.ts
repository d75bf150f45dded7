/**
 * Creates an operator (the platform team) account, on a fresh database too: it runs the
 * migrations first. Usage: npm run create-operator -- --email E --password P [--name N]
 * (or `node apps/api/dist/cli.mjs create-operator …`; src/cli/qless.ts runs it).
 * On the embedded database, stop the server first (PGlite is one process's).
 */
import { parseArgs } from 'node:util';
import { emailSchema, passwordSchema } from '@qless/contract';
import { ConfigError, loadConfig } from '../config.js';
import { hashPassword } from '../core/access/passwords.js';
import { findUserByEmail, insertUser } from '../core/access/users.repository.js';
import { systemClock } from '../core/clock.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

function fail(message: string): never {
  console.error(`create-operator: ${message}`);
  process.exit(2);
}

export async function createOperator(args: string[]): Promise<void> {
  let values: { email?: string; password?: string; name?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
      },
      strict: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  const email = emailSchema.safeParse(values.email ?? '');
  if (!email.success) fail('--email must be an e-mail address');
  const password = passwordSchema.safeParse(values.password ?? '');
  if (!password.success) fail(`--password: ${password.error.issues[0]?.message}`);

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
  });
  try {
    await migrateToLatest(database.db);
    if (await findUserByEmail(database.db, email.data)) {
      fail(`an account with the e-mail ${email.data} already exists`);
    }
    const user = await insertUser(database.db, {
      email: email.data,
      name: values.name ?? '',
      role: 'operator',
      organizationId: null,
      passwordHash: await hashPassword(password.data),
      now: systemClock.now(),
    });
    console.log(`Operator ${user.email} created (${database.engine}).`);
  } finally {
    await database.close();
  }
}
