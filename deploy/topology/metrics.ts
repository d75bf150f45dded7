/**
 * The metrics of each API process (METRICS_PORT on its own address), scraped every 500 ms
 * through the scenario, and the checks that each event showed in them: the drain and the new
 * processes of the deploy, the restart after SIGKILL, the database errors and 503s of the cut,
 * the latency of the slow link.
 */
import type { ApiProcess } from './api.js';
import type { Checks, Timeline, Window } from './checks.js';

const FAMILIES = [
  'qless_draining',
  'qless_live_sockets_closed_total',
  'qless_process_start_time_seconds',
  'qless_db_errors_total',
  'qless_database_up',
  'qless_http_requests_total',
  'qless_http_request_duration_seconds_sum',
  'qless_http_request_duration_seconds_count',
  'qless_db_pool_acquire_seconds_sum',
  'qless_db_pool_acquire_seconds_count',
  'qless_db_pool_connections',
];

interface Sample {
  t: number;
  n: number;
  series: Map<string, number>;
}

function parse(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !FAMILIES.some((f) => line.startsWith(f))) continue;
    const space = line.lastIndexOf(' ');
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

export class MetricsWatch {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout;
  private scraped = 0;
  private failures = 0;

  constructor(
    apis: ApiProcess[],
    private readonly port: string,
  ) {
    this.timer = setInterval(() => {
      for (const api of apis) void this.scrape(api);
    }, 1000);
  }

  /** Scrapes `api` every 200 ms until `done` settles (a drain lasts a second or two). */
  closely(api: ApiProcess, done: Promise<unknown>): void {
    let over = false;
    void done.finally(() => {
      over = true;
    });
    const again = () => {
      if (over) return;
      void this.scrape(api);
      setTimeout(again, 200);
    };
    again();
  }

  private async scrape(api: ApiProcess): Promise<void> {
    const url = api.metricsUrl(this.port);
    if (!url) return;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (!res.ok) throw new Error(String(res.status));
      this.samples.push({ t: Date.now(), n: api.n, series: parse(await res.text()) });
      this.scraped += 1;
    } catch {
      this.failures += 1;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private of(n: number, w: Window): Sample[] {
    return this.samples.filter((s) => s.n === n && s.t >= w.start && s.t <= w.end);
  }

  /** Sum of the series matching `match` in one sample. */
  private static sum(s: Sample, match: (key: string) => boolean): number {
    let total = 0;
    for (const [key, value] of s.series) if (match(key)) total += value;
    return total;
  }

  /** How much a counter grew over the window, across restarts (a drop is a new process). */
  private growth(n: number, w: Window, match: (key: string) => boolean): number {
    let grown = 0;
    let last: number | null = null;
    for (const s of this.of(n, w)) {
      const v = MetricsWatch.sum(s, match);
      if (last !== null) grown += v >= last ? v - last : v;
      last = v;
    }
    return grown;
  }

  private startTimes(n: number, w: Window): Set<number> {
    return new Set(
      this.of(n, w)
        .map((s) => MetricsWatch.sum(s, (k) => k.startsWith('qless_process_start_time_seconds')))
        .filter((v) => v > 0),
    );
  }

  /** Mean duration of requests matching `match` answered in the window. */
  private meanSeconds(
    n: number,
    w: Window,
    match: (key: string) => boolean,
    histogram = 'qless_http_request_duration_seconds',
  ): number | null {
    const sum = this.growth(n, w, (k) => k.startsWith(`${histogram}_sum`) && match(k));
    const count = this.growth(n, w, (k) => k.startsWith(`${histogram}_count`) && match(k));
    return count > 0 ? sum / count : null;
  }

  check(c: Checks, t: Timeline): void {
    this.stop();
    c.figure(
      `metrics: ${this.scraped} scrapes of the three processes, ${this.failures} failed (a process down)`,
    );
    if (this.scraped === 0) {
      c.check(false, 'metrics: no process answered on METRICS_PORT');
      return;
    }
    const around = (w: Window, before: number, after: number) => ({
      start: w.start - before,
      end: w.end + after,
    });
    // (a) The deploy: each process showed its drain, and each came back as a new process.
    const deploy = around(t.deploy, 1000, 1000);
    for (const n of [1, 2, 3]) {
      const draining = this.of(n, deploy).some(
        (s) => MetricsWatch.sum(s, (k) => k.startsWith('qless_draining')) > 0,
      );
      const closed = this.growth(n, deploy, (k) => k.startsWith('qless_live_sockets_closed_total'));
      c.check(
        draining || closed > 0,
        `metrics, deploy: api${n} showed its drain (draining gauge ${draining ? 'seen at 1' : 'never seen at 1'}, sockets closed +${closed})`,
      );
      c.check(
        this.startTimes(n, deploy).size >= 2,
        `metrics, deploy: api${n}'s process start time changed (${this.startTimes(n, deploy).size} seen)`,
      );
    }
    // (b) The SIGKILL: a new start time.
    const kill = around(t.kill, 10_000, 5000);
    c.check(
      this.startTimes(2, kill).size >= 2,
      `metrics, SIGKILL: api2's process start time changed (${this.startTimes(2, kill).size} seen)`,
    );
    // (c) The cut: database errors and 503s on api3; the slow link: api1's requests slower.
    const cut = around(t.cut, 0, 3000);
    const dbErrors = this.growth(3, cut, (k) => k.startsWith('qless_db_errors_total'));
    const down = this.of(3, cut).some(
      (s) =>
        MetricsWatch.sum(s, (k) => k.startsWith('qless_database_up')) === 0 &&
        s.series.has('qless_database_up'),
    );
    const unavailable = this.growth(
      3,
      cut,
      (k) => k.startsWith('qless_http_requests_total') && k.includes('status="503"'),
    );
    c.check(
      (dbErrors > 0 || down) && unavailable > 0,
      `metrics, cut: api3 counted database errors (+${dbErrors}${down ? ', database_up 0' : ''}) and 503s (+${unavailable})`,
    );
    // The slow link: api1's requests (every route, refusals included) take longer than api2's
    // over the same seconds (the same machine load; api2's link is untouched), or, when api1
    // finished too few of them for that (its pool full, nginx sending elsewhere), its waits
    // for a database connection are longer than api2's.
    const during = { start: t.cut.start + 2000, end: t.cut.end };
    const any = () => true;
    const slow = this.meanSeconds(1, during, any);
    const other = this.meanSeconds(2, during, any);
    const POOL = 'qless_db_pool_acquire_seconds';
    const slowWait = this.meanSeconds(1, during, any, POOL);
    const otherWait = this.meanSeconds(2, during, any, POOL);
    const ms = (v: number | null) => (v === null ? '-' : (v * 1000).toFixed(0));
    const longer = (a: number | null, b: number | null) => a !== null && b !== null && a - b >= 0.2;
    // How full api1's pool was meanwhile: the most requests seen waiting for a connection.
    const waiting = Math.max(
      0,
      ...this.of(1, during).map((x) =>
        MetricsWatch.sum(
          x,
          (k) => k.startsWith('qless_db_pool_connections') && k.includes('state="waiting"'),
        ),
      ),
    );
    c.check(
      longer(slow, other) || longer(slowWait, otherWait),
      `metrics, 200 ms link: api1's mean request ${ms(slow)} ms, api2's ${ms(other)} ms; mean wait for a database connection ${ms(slowWait)} ms against ${ms(otherWait)} ms (api1's payment initiations ${ms(this.meanSeconds(1, during, (k) => k.includes('initiate')))} ms; api1 scraped ${this.of(1, during).length} times meanwhile, at most ${waiting} waiting for a connection)`,
    );
  }
}
