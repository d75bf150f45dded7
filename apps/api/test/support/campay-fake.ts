import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';

/**
 * A local stand-in for Campay's HTTP API, for tests. It speaks the same protocol as
 * campay.net (token, collect, transaction status, signed callbacks) and lets a test script
 * failures: queued error responses, hung requests, expired tokens.
 */

export type FakeCampayStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';
export type FakeCampayRoute = 'token' | 'collect' | 'transaction';

export interface FakeCampayOptions {
  username?: string;
  password?: string;
  webhookKey?: string;
  /** expires_in reported for new tokens, in seconds. Default 3600. */
  tokenTtlSeconds?: number;
  /** The fake's clock, used for token expiry and callback iat. Default: real time. */
  now?: () => Date;
  /** ussd_code returned by collect. Default "*126#". */
  ussdCode?: string;
}

export interface FakeCampayTransaction {
  reference: string;
  status: FakeCampayStatus;
  /** As Campay received it (a string such as "2"). */
  amount: string;
  currency: string;
  from: string;
  description: string;
  external_reference: string | null;
  operator: string;
  code: string;
  operator_reference: string | null;
}

export interface FakeCampayRequest {
  method: string;
  path: string;
  route: FakeCampayRoute | null;
  authorization: string | null;
  body: unknown;
  /** The status the fake answered with; null when the request was left hanging. */
  status: number | null;
}

export interface FakeCampayResponse {
  status: number;
  /** JSON-encoded unless a string. */
  body?: unknown;
}

export interface SignCallbackOptions {
  /** Sign with another key (a forgery). Default: the fake's webhook key. */
  key?: string;
  alg?: 'HS256' | 'HS384' | 'HS512';
  /** Seconds from the fake's now; negative to make an already-expired signature. */
  expiresInSeconds?: number;
}

export type CallbackDelivery = 'GET' | 'POST_JSON' | 'POST_FORM';

export interface FakeCampay {
  readonly baseUrl: string;
  readonly webhookKey: string;
  /** Transactions by Campay reference. */
  readonly transactions: Map<string, FakeCampayTransaction>;
  /** Every request received, in order. */
  readonly requests: FakeCampayRequest[];
  /** Number of POST /api/token/ requests received. */
  readonly tokenRequests: number;
  /** Tokens successfully issued, oldest first. */
  readonly issuedTokens: string[];
  /** Answer the next request on `route` with this response instead of the normal one. */
  queueResponse(route: FakeCampayRoute, response: FakeCampayResponse): void;
  /** The next collect fails with 400 {message, error_code} (or the given status). */
  setNextCollectError(error: { errorCode: string; message?: string; status?: number }): void;
  /** The next request on `route` is never answered (until close). */
  hangNext(route: FakeCampayRoute): void;
  /** Every token issued so far now gets 401. */
  expireAllTokens(): void;
  /** Sets a transaction's final (or pending) status, as the operator would. */
  settle(reference: string, status: FakeCampayStatus): FakeCampayTransaction;
  /** The transaction made for one of our payment ids (external_reference). */
  findByExternalReference(externalReference: string): FakeCampayTransaction | undefined;
  /** An HS256 JWT over the payload, as Campay puts in a callback's `signature`. */
  signCallback(payload: Record<string, unknown>, options?: SignCallbackOptions): Promise<string>;
  /** The callback fields Campay would send for a transaction, signature included. */
  callbackFields(reference: string, options?: SignCallbackOptions): Promise<Record<string, string>>;
  /** Sends the transaction's callback to a webhook URL, as Campay does. */
  deliverCallback(
    url: string,
    reference: string,
    delivery?: CallbackDelivery,
    options?: SignCallbackOptions,
  ): Promise<Response>;
  close(): Promise<void>;
}

const MTN_PREFIX = /^2376(?:7\d|8\d|5[0-4])\d{6}$/;
const ORANGE_PREFIX = /^2376(?:9\d|5[5-9])\d{6}$/;

function routeOf(method: string, path: string): FakeCampayRoute | null {
  if (method === 'POST' && path === '/api/token/') return 'token';
  if (method === 'POST' && path === '/api/collect/') return 'collect';
  if (method === 'GET' && /^\/api\/transaction\/[^/]+\/?$/.test(path)) return 'transaction';
  return null;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : null;
}

export async function startFakeCampay(options: FakeCampayOptions = {}): Promise<FakeCampay> {
  const username = options.username ?? 'qless-app';
  const password = options.password ?? 'qless-secret';
  const webhookKey = options.webhookKey ?? 'fake-campay-webhook-key';
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;
  const now = options.now ?? (() => new Date());
  const ussdCode = options.ussdCode ?? '*126#';

  const transactions = new Map<string, FakeCampayTransaction>();
  const requests: FakeCampayRequest[] = [];
  const issuedTokens: string[] = [];
  const tokens = new Map<string, number>(); // token -> expiry (epoch ms)
  const queued: Record<FakeCampayRoute, Array<FakeCampayResponse | 'hang'>> = {
    token: [],
    collect: [],
    transaction: [],
  };
  let tokenRequests = 0;
  let codeCounter = 0;

  function send(res: ServerResponse, entry: FakeCampayRequest, response: FakeCampayResponse) {
    entry.status = response.status;
    const text =
      typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? {});
    res.writeHead(response.status, {
      'Content-Type': typeof response.body === 'string' ? 'text/html' : 'application/json',
    });
    res.end(text);
  }

  function authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    const match = /^Token (\S+)$/.exec(header);
    if (!match?.[1]) return false;
    const expiry = tokens.get(match[1]);
    return expiry !== undefined && now().getTime() < expiry;
  }

  function handleToken(body: unknown): FakeCampayResponse {
    tokenRequests += 1;
    if (field(body, 'username') !== username || field(body, 'password') !== password) {
      return {
        status: 400,
        body: { non_field_errors: ['Unable to log in with provided credentials.'] },
      };
    }
    const token = `fake-token-${issuedTokens.length + 1}-${randomUUID()}`;
    tokens.set(token, now().getTime() + tokenTtlSeconds * 1000);
    issuedTokens.push(token);
    return { status: 200, body: { token, expires_in: tokenTtlSeconds } };
  }

  function handleCollect(body: unknown): FakeCampayResponse {
    const from = field(body, 'from');
    const amount = field(body, 'amount');
    const currency = field(body, 'currency');
    const description = field(body, 'description');
    const externalReference = field(body, 'external_reference');
    if (typeof from !== 'string' || !/^237\d{9}$/.test(from)) {
      return {
        status: 400,
        body: { message: `Invalid phone number: ${String(from)}`, error_code: 'ER101' },
      };
    }
    const operator = MTN_PREFIX.test(from) ? 'MTN' : ORANGE_PREFIX.test(from) ? 'ORANGE' : null;
    if (operator === null) {
      return {
        status: 400,
        body: { message: `Operator not supported for ${from}`, error_code: 'ER102' },
      };
    }
    const amountText = typeof amount === 'number' ? String(amount) : amount;
    if (typeof amountText !== 'string' || !/^[1-9]\d*$/.test(amountText) || currency !== 'XAF') {
      return {
        status: 400,
        body: {
          message: 'Invalid amount or currency. Amount limit is 1 - 1000000',
          error_code: 'ER201',
        },
      };
    }
    const reference = randomUUID();
    codeCounter += 1;
    transactions.set(reference, {
      reference,
      status: 'PENDING',
      amount: amountText,
      currency,
      from,
      description: typeof description === 'string' ? description : '',
      external_reference: typeof externalReference === 'string' ? externalReference : null,
      operator,
      code: `CP${String(codeCounter).padStart(6, '0')}`,
      operator_reference: null,
    });
    return {
      status: 200,
      body: { reference, ussd_code: operator === 'MTN' ? ussdCode : '#150*50#', operator },
    };
  }

  function handleTransaction(path: string): FakeCampayResponse {
    const reference = decodeURIComponent(path.split('/')[3] ?? '');
    const tx = transactions.get(reference);
    if (!tx) return { status: 404, body: { detail: 'Not found.' } };
    return {
      status: 200,
      body: {
        reference: tx.reference,
        status: tx.status,
        amount: Number(tx.amount),
        currency: tx.currency,
        operator: tx.operator,
        code: tx.code,
        operator_reference: tx.operator_reference,
        external_reference: tx.external_reference,
      },
    };
  }

  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const route = routeOf(method, path);
      const body = await readBody(req);
      const entry: FakeCampayRequest = {
        method,
        path,
        route,
        authorization: req.headers.authorization ?? null,
        body,
        status: null,
      };
      requests.push(entry);
      if (route === null) {
        send(res, entry, { status: 404, body: { detail: 'Not found.' } });
        return;
      }
      const scripted = queued[route].shift();
      if (scripted === 'hang') return;
      if (route === 'token') {
        if (scripted) {
          tokenRequests += 1;
          send(res, entry, scripted);
        } else {
          send(res, entry, handleToken(body));
        }
        return;
      }
      if (scripted) {
        send(res, entry, scripted);
        return;
      }
      if (!authorized(req)) {
        send(res, entry, { status: 401, body: { detail: 'Invalid token.' } });
        return;
      }
      send(res, entry, route === 'collect' ? handleCollect(body) : handleTransaction(path));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  async function signCallback(
    payload: Record<string, unknown>,
    signOptions: SignCallbackOptions = {},
  ): Promise<string> {
    const iat = Math.floor(now().getTime() / 1000);
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: signOptions.alg ?? 'HS256', typ: 'JWT' })
      .setIssuedAt(iat);
    if (signOptions.expiresInSeconds !== undefined) {
      jwt.setExpirationTime(iat + signOptions.expiresInSeconds);
    }
    return jwt.sign(new TextEncoder().encode(signOptions.key ?? webhookKey));
  }

  function requireTransaction(reference: string): FakeCampayTransaction {
    const tx = transactions.get(reference);
    if (!tx) throw new Error(`Fake Campay has no transaction ${reference}`);
    return tx;
  }

  async function callbackFields(
    reference: string,
    signOptions?: SignCallbackOptions,
  ): Promise<Record<string, string>> {
    const tx = requireTransaction(reference);
    const fields: Record<string, string> = {
      status: tx.status,
      reference: tx.reference,
      amount: tx.amount,
      currency: tx.currency,
      operator: tx.operator,
      code: tx.code,
      operator_reference: tx.operator_reference ?? '',
      external_reference: tx.external_reference ?? '',
    };
    return { ...fields, signature: await signCallback(fields, signOptions) };
  }

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    webhookKey,
    transactions,
    requests,
    get tokenRequests() {
      return tokenRequests;
    },
    issuedTokens,
    queueResponse(route, response) {
      queued[route].push(response);
    },
    setNextCollectError({ errorCode, message, status }) {
      queued.collect.push({
        status: status ?? 400,
        body: { message: message ?? `Campay error ${errorCode}`, error_code: errorCode },
      });
    },
    hangNext(route) {
      queued[route].push('hang');
    },
    expireAllTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    settle(reference, status) {
      const tx = requireTransaction(reference);
      tx.status = status;
      if (status === 'SUCCESSFUL' && tx.operator_reference === null) {
        tx.operator_reference = String(1_000_000_000 + Math.floor(Math.random() * 1e9));
      }
      return tx;
    },
    findByExternalReference(externalReference) {
      for (const tx of transactions.values()) {
        if (tx.external_reference === externalReference) return tx;
      }
      return undefined;
    },
    signCallback,
    callbackFields,
    async deliverCallback(url, reference, delivery = 'GET', signOptions) {
      const fields = await callbackFields(reference, signOptions);
      if (delivery === 'GET') {
        const target = new URL(url);
        for (const [key, value] of Object.entries(fields)) target.searchParams.set(key, value);
        return fetch(target);
      }
      if (delivery === 'POST_JSON') {
        return fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(fields),
        });
      }
      return fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
