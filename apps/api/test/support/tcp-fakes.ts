import { createConnection, createServer, type Server, type Socket } from 'node:net';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

function closer(server: Server, sockets: Set<Socket>) {
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** A "database" that accepts connections and never says a word. */
export async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  return { port: await listen(server), close: closer(server, sockets) };
}

/**
 * A TCP relay to a real server that can freeze: while frozen, bytes in both directions are
 * held back (connections stay open, nothing is answered) — a database that hangs.
 */
export async function freezableProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let frozen = false;
  const waiting: (() => void)[] = [];
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (!frozen) return void to.write(chunk);
      from.pause();
      waiting.push(() => {
        to.write(chunk);
        from.resume();
      });
    });
  };
  const server = createServer((client) => {
    const upstream = createConnection(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  return {
    port: await listen(server),
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const resume of waiting.splice(0)) resume();
    },
    close: closer(server, sockets),
  };
}
