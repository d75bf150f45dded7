/**
 * Follows a server state that a WebSocket pushes (the board, a visitor's turn), for hours on a
 * flaky network: one socket at a time, reconnected with a growing delay (1 s, 2 s, 4 s … 30 s,
 * jittered) when it drops; while it is down the state is read with a plain GET every `pollMs`
 * (a phone whose network blocks sockets still follows its turn). Nothing accumulates: one
 * socket, one reconnect timer, one poll timer, one `online` listener, all released by stop().
 */
export type FeedStatus = 'connecting' | 'live' | 'reconnecting';

export interface FeedOptions<T> {
  /** The socket's path (`/api/v1/…`); the scheme and host are the page's. */
  socketPath: string;
  /** One GET of the same state (the poll, and the catch-up after a drop). */
  fetchOnce: (signal: AbortSignal) => Promise<T>;
  /** A frame's data, or null to ignore it. */
  read: (data: unknown) => T | null;
  onState: (state: T) => void;
  onStatus?: (status: FeedStatus) => void;
  /** The poll's interval while the socket is down. */
  pollMs: number;
  /** A final state stops the feed (a visit that ended). */
  isFinal?: (state: T) => boolean;
  /** The longest wait between two reconnects. */
  maxBackoffMs?: number;
}

export function socketUrl(path: string, loc: Pick<Location, 'protocol' | 'host'>): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${path}`;
}

/** The wait before reconnect number `attempt` (0-based): doubling from 1 s, capped, ±20 %. */
export function backoffMs(attempt: number, maxMs: number, random: () => number = Math.random) {
  const base = Math.min(maxMs, 1000 * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export function followFeed<T>(options: FeedOptions<T>): () => void {
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  let stopped = false;
  let socket: WebSocket | null = null;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let polling: AbortController | null = null;
  let status: FeedStatus | null = null;
  /** The socket is open: no polling then. */
  let live = false;

  const setStatus = (next: FeedStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  };

  const deliver = (state: T) => {
    if (stopped) return;
    options.onState(state);
    if (options.isFinal?.(state)) stop();
  };

  const stopPolling = () => {
    clearTimeout(pollTimer);
    pollTimer = undefined;
    polling?.abort();
    polling = null;
  };

  const poll = () => {
    if (stopped || polling) return;
    const controller = new AbortController();
    polling = controller;
    options
      .fetchOnce(controller.signal)
      .then(
        (state) => {
          if (polling === controller) deliver(state);
        },
        () => {
          // Offline or refused for now: the next poll or the socket will tell.
        },
      )
      .finally(() => {
        if (polling !== controller) return;
        polling = null;
        if (!stopped && !live) pollTimer = setTimeout(poll, options.pollMs);
      });
  };

  const release = (s: WebSocket) => {
    s.onopen = null;
    s.onmessage = null;
    s.onerror = null;
    s.onclose = null;
    if (s.readyState <= WebSocket.OPEN) s.close();
  };

  const dropped = () => {
    if (stopped) return;
    if (socket) release(socket);
    socket = null;
    live = false;
    setStatus('reconnecting');
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(connect, backoffMs(attempt, maxBackoff));
    attempt += 1;
    // Catch up at once (a call may have come while the socket was down), then keep polling.
    if (!pollTimer) poll();
  };

  function connect() {
    if (stopped) return;
    reconnectTimer = undefined;
    let s: WebSocket;
    try {
      s = new WebSocket(socketUrl(options.socketPath, location));
    } catch {
      dropped();
      return;
    }
    socket = s;
    s.onopen = () => {
      attempt = 0;
      live = true;
      stopPolling();
      setStatus('live');
    };
    s.onmessage = (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return; // a malformed frame: the next one tells
      }
      const state = options.read(data);
      if (state) deliver(state);
    };
    s.onerror = dropped;
    s.onclose = dropped;
  }

  // Back online: try the socket now rather than at the end of a long backoff.
  const online = () => {
    if (stopped || socket) return;
    attempt = 0;
    clearTimeout(reconnectTimer);
    connect();
  };
  window.addEventListener('online', online);

  function stop() {
    if (stopped) return;
    stopped = true;
    live = false;
    clearTimeout(reconnectTimer);
    stopPolling();
    window.removeEventListener('online', online);
    if (socket) release(socket);
    socket = null;
  }

  setStatus('connecting');
  connect();
  return stop;
}
