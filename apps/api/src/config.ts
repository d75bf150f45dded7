import path from 'node:path';
import { isValidTimeZone } from '@qless/contract';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const origin = z.url().transform((u, ctx) => {
  const parsed = new URL(u);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: 'must be an http(s) origin' });
    return z.NEVER;
  }
  return parsed.origin;
});

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  SEED_DEMO: bool.optional(),
  PUBLIC_ORIGIN: origin.optional(),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(origin)),
  WEB_DIST_DIR: z.string().min(1).optional(),
  DEFAULT_TIME_ZONE: z
    .string()
    .default('Africa/Douala')
    .refine(isValidTimeZone, 'must be an IANA time zone such as Africa/Douala'),
  TRUST_PROXY: bool.default(false),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  logLevel: string;
  /** Unset: embedded PGlite in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  seedDemo: boolean;
  /** Origins whose pages may call the API and open sockets: the public origin plus CORS_ORIGINS. */
  publicOrigin: string;
  corsOrigins: string[];
  webDistDir: string;
  mediaDir: string;
  defaultTimeZone: string;
  trustProxy: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const apiRoot = path.resolve(import.meta.dirname, '..');

/** Reads the environment once. Every bad key is reported together. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset" so that `FOO= npm start` behaves like no FOO at all.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const databaseUrl = e.DATABASE_URL ?? null;
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    databaseUrl,
    dataDir: path.resolve(e.DATA_DIR),
    seedDemo: e.SEED_DEMO ?? databaseUrl === null,
    publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
    corsOrigins: e.CORS_ORIGINS,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(apiRoot, '../web/dist')),
    mediaDir: path.join(apiRoot, 'assets/media'),
    defaultTimeZone: e.DEFAULT_TIME_ZONE,
    trustProxy: e.TRUST_PROXY,
  };
}
