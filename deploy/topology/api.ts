/**
 * One API process of the topology in its namespace: started with the unit's command and
 * environment (hosts.ts unitCommand) plus the topology's addresses, stopped by signal.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { API_PORT, type ApiCommand, HOST_NAME, spawnIn, tail, waitFor } from './hosts.js';
import { apiFrontAddress, PROXY_ADDRESS, ROOT_BACK } from './net.js';

/** The port of API process `n`'s database link (db-links.ts) on ROOT_BACK. */
export const dbLinkPort = (n: number) => 5440 + n;

export interface ApiSettings {
  command: ApiCommand;
  /** Settings of the test on top of the unit's (addresses, the simulator, metrics). */
  env: Record<string, string>;
  dir: string;
}

export class ApiProcess {
  child: ChildProcess | null = null;
  exited: Promise<number | null> = Promise.resolve(null);
  readonly logFile: string;
  /** The readiness path answered (the liveness one until the app has a readiness route). */
  readyPath = '/api/v1/health/ready';

  constructor(
    readonly n: number,
    private settings: ApiSettings,
  ) {
    this.logFile = join(settings.dir, `api${n}.log`);
  }

  get origin(): string {
    return `http://${apiFrontAddress(this.n)}:${API_PORT}`;
  }

  /** Where its metrics are served (METRICS_PORT on its own address). */
  metricsUrl(port: string | undefined): string | null {
    return port ? `http://${apiFrontAddress(this.n)}:${port}/metrics` : null;
  }

  get settingsEnv(): Record<string, string> {
    return this.settings.env;
  }

  /** Another release's command (the rolling deploy's previous → current). */
  setCommand(command: ApiCommand): void {
    this.settings = { ...this.settings, command };
  }

  get env(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...this.settings.command.env,
      ...this.settings.env,
      HOST: apiFrontAddress(this.n),
      DATA_DIR: join(this.settings.dir, `data-api${this.n}`),
      // Metrics on the process's own address: the test scrapes each process, not the proxy.
      METRICS_HOST: apiFrontAddress(this.n),
      PORT: String(API_PORT),
      DATABASE_URL: `postgres://postgres@${ROOT_BACK}:${dbLinkPort(this.n)}/qless`,
      TRUST_PROXY: PROXY_ADDRESS,
      PUBLIC_ORIGIN: `https://${HOST_NAME}`,
    };
  }

  start(): void {
    // A release without a readiness route (an older one) falls back to the liveness one.
    this.readyPath = '/api/v1/health/ready';
    const [cmd, ...args] = this.settings.command.argv;
    const child = spawnIn(`qx-api${this.n}`, [cmd as string, ...args], {
      env: this.env,
      cwd: this.settings.command.cwd,
      logFile: this.logFile,
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  async ready(): Promise<boolean> {
    let res = await fetch(`${this.origin}${this.readyPath}`, { signal: AbortSignal.timeout(2000) });
    if (res.status === 404 && this.readyPath !== '/api/v1/health') {
      this.readyPath = '/api/v1/health';
      res = await fetch(`${this.origin}${this.readyPath}`, { signal: AbortSignal.timeout(2000) });
    }
    return res.ok;
  }

  /** Starts it and waits for readiness; the milliseconds it took. */
  async startReady(timeoutMs = 60_000): Promise<number> {
    const started = Date.now();
    this.start();
    let early: number | null | undefined;
    void this.exited.then((code) => {
      early = code;
    });
    await waitFor(
      `api${this.n} ready`,
      async () => {
        if (early !== undefined) {
          throw new Error(`api${this.n} exited (${early}) before ready:\n${tail(this.logFile)}`);
        }
        return this.ready();
      },
      timeoutMs,
      100,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${tail(this.logFile)}`);
    });
    return Date.now() - started;
  }

  /** Sends `signal` and waits for the exit; its code and the milliseconds it took. */
  async stop(
    signal: 'SIGTERM' | 'SIGKILL',
    timeoutMs = 30_000,
  ): Promise<{ code: number | null; ms: number }> {
    const started = Date.now();
    this.child?.kill(signal);
    const code = await Promise.race([
      this.exited,
      new Promise<'late'>((r) => setTimeout(() => r('late'), timeoutMs)),
    ]);
    if (code === 'late') {
      this.child?.kill('SIGKILL');
      throw new Error(`api${this.n} did not exit within ${timeoutMs} ms of ${signal}`);
    }
    return { code, ms: Date.now() - started };
  }
}
