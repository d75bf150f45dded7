import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort, startServer as start } from '../support/server-process.js';

describe('the server process', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('refuses to start on bad configuration, naming every bad key', async () => {
    const proc = start({ PORT: 'eighty', SEED_DEMO: 'maybe', DATABASE_URL: 'mysql://nope' });
    expect(await proc.exited).toBe(1);
    for (const key of ['PORT', 'SEED_DEMO', 'DATABASE_URL']) expect(proc.output()).toContain(key);
  });

  it('starts on a fresh embedded database with demo data and shuts down cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'qless-server-'));
    dirs.push(dataDir);
    const port = await freePort();
    const proc = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RECONCILE_INTERVAL_MS: '200',
    });
    const health = await vi.waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null);
        expect(res, proc.output()).not.toBeNull();
        return res;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(health?.status, proc.output()).toBe(200);
    const orgs = (await (await fetch(`http://127.0.0.1:${port}/api/v1/organizations`)).json()) as {
      organizations: unknown[];
    };
    expect(orgs.organizations.length).toBeGreaterThanOrEqual(8);
    proc.child.kill('SIGTERM');
    expect(await proc.exited, proc.output()).toBe(0);
    expect(proc.output()).not.toMatch(/error during shutdown/);
  }, 90_000);
});
