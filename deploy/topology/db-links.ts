/**
 * Each API process's link to the database, as a relay in the root namespace on the back
 * network (ROOT_BACK:5441.. → DB_ADDRESS:5432) that can add latency. The kernel of the machine
 * this was written on (Firecracker's) has no netem qdisc (`tc qdisc add ... netem` says
 * "Specified qdisc kind is unknown"), so the 200 ms of delay are added here, to every chunk
 * the process sends the database, in order. A cut is done on the network itself
 * (net.ts setBackLink); the reset that starts it is done here: every connection of a link is
 * reset (RST both ways), as a restarted PgBouncer or a firewall that lost its state does.
 *
 * It runs as its own process (`node --import tsx db-links.ts <listen host> <db host:port>
 * <port>...`), so the test's own work never slows the links; a line `delay <port> <ms>` on its
 * stdin sets a link's delay, and it answers `ok <port> <ms>`; `reset <port>` resets its
 * connections and answers `reset <port> <how many>`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { createInterface, type Interface } from 'node:readline';
import { pathToFileURL } from 'node:url';

export interface DbLink {
  port: number;
  /** Milliseconds added to each chunk the API process sends the database. */
  setDelay(ms: number): void;
  /** Resets every connection of the link (both sides); how many sockets were reset. */
  reset(): number;
  close(): Promise<void>;
}

/** Forwards `from` to `to`, holding each chunk `delay()` ms; order kept, backpressure kept. */
function delayedPipe(from: Socket, to: Socket, delay: () => number): void {
  const queue: { at: number; chunk: Buffer }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const now = Date.now();
    while (queue.length > 0 && (queue[0]?.at ?? 0) <= now) {
      const item = queue.shift();
      if (item && !to.destroyed) to.write(item.chunk);
    }
    if (queue.length > 0) timer = setTimeout(flush, Math.max(0, (queue[0]?.at ?? now) - now));
  };
  from.on('data', (chunk: Buffer) => {
    const ms = delay();
    if (ms <= 0 && queue.length === 0) {
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
      return;
    }
    queue.push({ at: Date.now() + ms, chunk });
    if (!timer) timer = setTimeout(flush, ms);
  });
  from.on('end', () => {
    const finish = () => (queue.length === 0 ? to.end() : setTimeout(finish, 10));
    finish();
  });
}

export async function openDbLink(
  listenHost: string,
  port: number,
  dbHost: string,
  dbPort: number,
): Promise<DbLink> {
  let delayMs = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    client.setNoDelay(true);
    const upstream = connect({ host: dbHost, port: dbPort });
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    delayedPipe(client, upstream, () => delayMs);
    upstream.pipe(client);
    const done = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', done);
    upstream.on('error', done);
    client.on('close', done);
    upstream.on('close', done);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, listenHost, () => resolve());
  });
  return {
    port,
    setDelay(ms) {
      delayMs = ms;
    },
    reset() {
      const all = [...sockets];
      for (const s of all) s.resetAndDestroy();
      return all.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The links' process, started from the test: `setDelay(port, ms)` waits for its answer. */
export class DbLinks {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<string, () => void>();
  private readonly lines: Interface;
  readonly ready: Promise<void>;

  constructor(listenHost: string, db: string, ports: number[]) {
    this.child = spawn(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, listenHost, db, ...ports.map(String)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let started: () => void = () => undefined;
    this.ready = new Promise((resolve) => {
      started = resolve;
    });
    this.lines = createInterface({ input: this.child.stdout as NodeJS.ReadableStream });
    this.lines.on('line', (line) => {
      if (line === 'listening') started();
      this.waiting.get(line)?.();
    });
  }

  setDelay(port: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.set(`ok ${port} ${ms}`, resolve);
      this.child.stdin?.write(`delay ${port} ${ms}\n`);
    });
  }

  /** Resets the link's connections; how many sockets were reset (the app's side and the database's). */
  reset(port: number): Promise<number> {
    return new Promise((resolve) => {
      const prefix = `reset ${port} `;
      const onLine = (line: string) => {
        if (!line.startsWith(prefix)) return;
        this.lines.off('line', onLine);
        resolve(Number(line.slice(prefix.length)));
      };
      this.lines.on('line', onLine);
      this.child.stdin?.write(`reset ${port}\n`);
    });
  }

  close(): void {
    this.child.kill('SIGKILL');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [listenHost = '', db = '', ...ports] = process.argv.slice(2);
  const [dbHost = '', dbPort = '5432'] = db.split(':');
  const links = new Map<number, DbLink>();
  for (const port of ports.map(Number)) {
    links.set(port, await openDbLink(listenHost, port, dbHost, Number(dbPort)));
  }
  process.stdout.write('listening\n');
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [word, port, ms] = line.split(' ');
    if (word === 'reset') {
      process.stdout.write(`reset ${port} ${links.get(Number(port))?.reset() ?? 0}\n`);
      return;
    }
    if (word !== 'delay') return;
    links.get(Number(port))?.setDelay(Number(ms));
    process.stdout.write(`ok ${port} ${ms}\n`);
  });
  process.stdin.on('end', () => process.exit(0));
}
