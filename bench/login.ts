/**
 * `npm run bench:login`: what the sign-in limits and timings are, measured against the real
 * server in its own process (PGlite in a scratch folder), the client here.
 *
 * 1. Timing: a wrong password for an existing account and any password for an unknown
 *    e-mail, interleaved; the medians should match (both run one argon2id verification).
 * 2. Limits: failures on one account from many addresses until the first 429, then
 *    failures from one address over many accounts until the first 429.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startServer } from '../apps/api/test/support/server-process.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SAMPLES = Number(process.env.BENCH_LOGIN_SAMPLES ?? 40);
const EMAIL = 'bench-operator@qless.test';
const PASSWORD = 'a long benchmark passphrase';
/** A second account, untouched by the timing run's failures, for the limits. */
const LIMITED = 'bench-limited@qless.test';

async function withServer<T>(
  dataDir: string,
  env: Record<string, string>,
  run: (base: string) => Promise<T>,
): Promise<T> {
  const port = await freePort();
  const server = startServer({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    RECONCILER_ENABLED: 'false',
    TRUST_PROXY: '1',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {}
    if (i > 300) throw new Error(`server did not start:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    return await run(base);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

async function login(base: string, email: string, password: string, ip: string) {
  const t = performance.now();
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qless-bench-login-'));
  try {
    for (const email of [EMAIL, LIMITED]) {
      execFileSync(
        'npm',
        ['run', '-s', 'create-operator', '--', '--email', email, '--password', PASSWORD],
        { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'ignore' },
      );
    }
    const timing = await withServer(
      dataDir,
      { LOGIN_FAILURES_PER_ACCOUNT: '1000000', LOGIN_FAILURES_PER_IP: '1000000' },
      async (base) => {
        for (let i = 0; i < 5; i += 1) await login(base, EMAIL, 'warm up', '10.0.0.1');
        const wrong: number[] = [];
        const unknown: number[] = [];
        const right: number[] = [];
        for (let i = 0; i < SAMPLES; i += 1) {
          wrong.push((await login(base, EMAIL, `wrong ${i}`, '10.0.0.2')).ms);
          // The same unknown e-mail each time, so both sides update an existing counter row.
          unknown.push((await login(base, 'nobody@qless.test', `wrong ${i}`, '10.0.0.3')).ms);
          right.push((await login(base, EMAIL, PASSWORD, '10.0.0.4')).ms);
        }
        return { wrong: median(wrong), unknown: median(unknown), right: median(right) };
      },
    );
    const limits = await withServer(dataDir, {}, async (base) => {
      let perAccount = 0;
      for (let i = 1; i <= 50; i += 1) {
        const r = await login(base, LIMITED, `guess ${i}`, `10.1.${i}.1`);
        if (r.status === 429) break;
        perAccount += 1;
      }
      const rightAfter = (await login(base, LIMITED, PASSWORD, '10.1.200.1')).status;
      let perAddress = 0;
      for (let i = 1; i <= 100; i += 1) {
        const r = await login(base, `spray${i}@qless.test`, 'guess', '10.2.0.1');
        if (r.status === 429) break;
        perAddress += 1;
      }
      return { perAccount, rightAfter, perAddress };
    });
    console.log('Sign-in, measured against the server in its own process (PGlite):');
    console.log(`  median wrong password (existing account): ${timing.wrong.toFixed(1)} ms`);
    console.log(`  median unknown e-mail:                    ${timing.unknown.toFixed(1)} ms`);
    console.log(
      `  ratio unknown / wrong:                    ${(timing.unknown / timing.wrong).toFixed(2)}`,
    );
    console.log(`  median successful sign-in:                ${timing.right.toFixed(1)} ms`);
    console.log(
      `  failures on one account (many addresses) before 429: ${limits.perAccount}; the right password then answers ${limits.rightAfter}`,
    );
    console.log(`  failures from one address (many accounts) before 429: ${limits.perAddress}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
