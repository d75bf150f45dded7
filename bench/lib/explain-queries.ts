/**
 * EXPLAIN (ANALYZE, BUFFERS) of every query the hot read routes run, whatever they are:
 * the real app is built in this process on the store named by DATABASE_URL / DATA_DIR
 * (its server stopped: PGlite is one process's database), with a plugin that records each
 * compiled query; the routes in argv[2] (JSON list of paths) are each asked once through
 * app.inject, then each distinct query is explained with its own parameters. Prints text.
 */
import {
  CompiledQuery,
  type KyselyPlugin,
  PostgresQueryCompiler,
  type QueryResult,
  type UnknownRow,
} from 'kysely';
import { buildApp } from '../../apps/api/src/app.js';
import { loadConfig } from '../../apps/api/src/config.js';
import { openDatabase } from '../../apps/api/src/db/database.js';

const paths = JSON.parse(process.argv[2] ?? '[]') as string[];

const compiler = new PostgresQueryCompiler();
let recording: string | null = null;
const recorded: { route: string; sql: string; parameters: readonly unknown[] }[] = [];
const recorder: KyselyPlugin = {
  transformQuery(args) {
    if (recording) {
      const q = compiler.compileQuery(args.node, args.queryId);
      recorded.push({ route: recording, sql: q.sql, parameters: q.parameters });
    }
    return args.node;
  },
  transformResult(args): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  },
};

const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || null,
  dataDir: process.env.DATA_DIR ?? null,
});
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  PAYMENT_PROVIDER: 'simulator',
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  WEB_DIST_DIR: '/nonexistent',
  // Nothing in the background: only the routes' queries are recorded.
  RECONCILER_ENABLED: 'false',
  OUTBOX_WORKER_ENABLED: 'false',
  REMINDERS_ENABLED: 'false',
});
const app = await buildApp({
  config,
  database: { ...database, db: database.db.withPlugin(recorder) },
});
const out: string[] = [];
try {
  for (const url of paths) {
    recording = url;
    const res = await app.inject({ method: 'GET', url });
    recording = null;
    out.push(`# GET ${url} → ${res.statusCode}, ${res.rawPayload.length} bytes`);
  }
  const seen = new Set<string>();
  for (const q of recorded) {
    if (seen.has(q.sql)) continue;
    seen.add(q.sql);
    const plan = await database.db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain (analyze, buffers) ${q.sql}`, [...q.parameters]),
    );
    out.push(
      '',
      `## ${q.route}`,
      q.sql,
      `-- parameters: ${JSON.stringify(q.parameters)}`,
      ...plan.rows.map((r) => r['QUERY PLAN']),
    );
  }
} finally {
  await app.close();
  await database.close();
}
process.stdout.write(`${out.join('\n')}\n`);
