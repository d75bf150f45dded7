/**
 * Follows a server state that a WebSocket pushes (a payment's status, the board, a visitor's
 * turn), for hours on a flaky network: one socket at a time, reconnected when it drops (see
 * `reconnectDelayMs`); while it is down the state is read with a plain GET every `pollMs` (a
 * phone whose network blocks sockets still follows its turn). The server sends the current
 * state as a socket's first frame, and a drop is followed by one GET at once, so a change made
 * while disconnected is never missed. Nothing accumulates: one socket, one reconnect timer,
 * one poll timer, one `online` listener, all released by stop().
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

/**
 * Closes after which the server is back at once, elsewhere: 1012 "Service Restart" (a process
 * being deployed tells its sockets so, decision 028), 1001 going away, 1005 no code (an older
 * release closing its sockets), 1006 the connection lost without a close (a process killed),
 * 1011 a server error. Refusals (4xxx codes, 1008) and 1013 "try again later" back off.
 */
const PROMPT_CLOSES = new Set([1001, 1005, 1006, 1011, 1012]);
/** Prompt reconnects in a row before backing off (every process draining at once...). */
const MAX_PROMPT_IN_A_ROW = 3;

export interface Drop {
  /** The close code (undefined: an error without a close event). */
  code: number | undefined;
  /** The socket had opened: the server was there a moment ago. */
  wasLive: boolean;
  /** Drops since the last socket that stayed open for a while (0-based). */
  attempt: number;
}

/**
 * One reconnect policy for every live socket: a socket that was open and closed because its
 * server went away (a deploy's 1012, above all) reconnects within 0–1 s, jittered so that a
 * process's thousands of sockets do not land on the others in the same instant; anything
 * else, or a fourth prompt drop in a row, waits the growing back-off.
 */
export function reconnectDelayMs(drop: Drop, maxMs: number, random: () => number = Math.random) {
  if (
    drop.wasLive &&
    drop.code !== undefined &&
    PROMPT_CLOSES.has(drop.code) &&
    drop.attempt < MAX_PROMPT_IN_A_ROW
  ) {
    return Math.round(1000 * random());
  }
  return backoffMs(drop.attempt, maxMs, random);
}

/** A socket open this long was stable: the next drop starts the count again. */
const STABLE_MS = 10_000;

export function followFeed<T>(options: FeedOptions<T>): () => void {
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  let stopped = false;
  let socket: WebSocket | null = null;
  let attempt = 0;
  let openedAt: number | null = null;
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

  const dropped = (event?: { code?: number }) => {
    if (stopped) return;
    if (socket) release(socket);
    socket = null;
    live = false;
    const wasLive = openedAt !== null;
    if (openedAt !== null && Date.now() - openedAt >= STABLE_MS) attempt = 0;
    openedAt = null;
    setStatus('reconnecting');
    clearTimeout(reconnectTimer);
    const delay = reconnectDelayMs({ code: event?.code, wasLive, attempt }, maxBackoff);
    reconnectTimer = setTimeout(connect, delay);
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
      openedAt = Date.now();
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
    // An error is followed by a close with its code: the close decides the wait.
    s.onerror = () => {
      if (openedAt === null) dropped();
    };
    s.onclose = (event) => dropped(event);
  }

  // Back online: try the socket now rather than at the end of a long backoff.
  const online = () => {
    if (stopped || socket) return;
    attempt = 0;
    clearTimeout(reconnectTimer);
    connect();
  };
  globalThis.addEventListener?.('online', online);

  function stop() {
    if (stopped) return;
    stopped = true;
    live = false;
    clearTimeout(reconnectTimer);
    stopPolling();
    globalThis.removeEventListener?.('online', online);
    if (socket) release(socket);
    socket = null;
  }

  setStatus('connecting');
  connect();
  return stop;
}
