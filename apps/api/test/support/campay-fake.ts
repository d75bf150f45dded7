import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { historyAnswer } from './campay-fake-history.js';
import {
  type CallbackDelivery,
  deliverCampayCallback,
  type SignCallbackOptions,
  signCampayCallback,
} from './campay-fake-signing.js';

export type { CallbackDelivery, SignCallbackOptions } from './campay-fake-signing.js';

/**
 * A local stand-in for Campay's HTTP API, for tests and for trying the server by hand
 * (campay-fake-cli.ts). It follows what Campay documents in its API docs and SDKs (token,
 * collect, transaction status, signed callbacks) and lets a test script failures: queued
 * error responses, hung requests, expired tokens.
 *
 * Where Campay documents nothing, the fake has to answer something; every such choice is
 * marked "GUESS" below. Do not read Campay's behaviour off a GUESS.
 */

export type FakeCampayStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';
export type FakeCampayRoute = 'token' | 'collect' | 'transaction' | 'history';

export interface FakeCampayOptions {
  username?: string;
  password?: string;
  webhookKey?: string;
  /** expires_in reported for new tokens, in seconds. Default 3600 (GUESS: not documented). */
  tokenTtlSeconds?: number;
  /** The fake's clock, used for token expiry and callback iat/nbf. Default: real time. */
  now?: () => Date;
  /** ussd_code returned by collect for MTN numbers. Default "*126#" (GUESS). */
  ussdCode?: string;
  /** TCP port to listen on (127.0.0.1). Default 0: any free port. */
  port?: number;
  /** Called after each request is answered (or left hanging). */
  onRequest?: (request: FakeCampayRequest) => void;
  /** Called when a collect creates a transaction. */
  onCollect?: (transaction: FakeCampayTransaction) => void;
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
  /** Failure text; empty unless set by settle(). */
  reason: string;
  /** When the collect arrived (the fake's clock), for the history call. */
  created_at: string;
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
  /** The next collect creates its transaction (the prompt goes out) but is never answered. */
  loseNextCollectAnswer(): void;
  /** Every token issued so far now gets 401. */
  expireAllTokens(): void;
  /** Sets a transaction's final (or pending) status, as the operator would. */
  settle(reference: string, status: FakeCampayStatus, reason?: string): FakeCampayTransaction;
  /** The transaction made for one of our payment ids (external_reference). */
  findByExternalReference(externalReference: string): FakeCampayTransaction | undefined;
  /** A callback `signature` like Campay's examples (claims source, iat, nbf only). */
  signCallback(options?: SignCallbackOptions): Promise<string>;
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

// GUESS: Campay reports the operator but does not document how it tells them apart; these
// are Cameroon's MTN and Orange mobile prefixes. Other numbers get ER102.
const MTN_PREFIX = /^2376(?:7\d|8\d|5[0-4])\d{6}$/;
const ORANGE_PREFIX = /^2376(?:9\d|5[5-9])\d{6}$/;

/** GUESS: Campay's error bodies and statuses are not documented; only the ER codes are. */
const collectError = (errorCode: string, message: string, status = 400): FakeCampayResponse => ({
  status,
  body: { message, error_code: errorCode },
});
/** GUESS: Django REST framework's default 404 and 401 bodies. */
const NOT_FOUND: FakeCampayResponse = { status: 404, body: { detail: 'Not found.' } };
const INVALID_TOKEN: FakeCampayResponse = { status: 401, body: { detail: 'Invalid token.' } };

function routeOf(method: string, path: string): FakeCampayRoute | null {
  if (method === 'POST' && path === '/api/token/') return 'token';
  if (method === 'POST' && path === '/api/collect/') return 'collect';
  if (method === 'GET' && /^\/api\/transaction\/[^/]+\/?$/.test(path)) return 'transaction';
  if (method === 'POST' && path === '/api/history/') return 'history';
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
  const queued: Record<FakeCampayRoute, Array<FakeCampayResponse | 'hang' | 'lose-answer'>> = {
    token: [],
    collect: [],
    transaction: [],
    history: [],
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
      // GUESS: Django REST framework's answer to refused credentials.
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
      return collectError('ER101', `Invalid phone number: ${String(from)}`);
    }
    const operator = MTN_PREFIX.test(from) ? 'MTN' : ORANGE_PREFIX.test(from) ? 'ORANGE' : null;
    if (operator === null) return collectError('ER102', `Operator not supported for ${from}`);
    // ER201 (amount with decimals) is documented. GUESS: the fake enforces no amount limit;
    // Campay's limits are not documented (demo is said to cap at 100 XAF).
    const amountText = typeof amount === 'number' ? String(amount) : amount;
    if (typeof amountText !== 'string' || !/^[1-9]\d*$/.test(amountText) || currency !== 'XAF') {
      return collectError('ER201', 'Invalid amount or currency');
    }
    const reference = randomUUID();
    codeCounter += 1;
    const tx: FakeCampayTransaction = {
      reference,
      status: 'PENDING',
      amount: amountText,
      currency,
      from,
      description: typeof description === 'string' ? description : '',
      external_reference: typeof externalReference === 'string' ? externalReference : null,
      operator,
      // GUESS: the docs show codes like "CP…"; the digits are the fake's.
      code: `CP${String(codeCounter).padStart(6, '0')}`,
      operator_reference: null,
      reason: '',
      created_at: now().toISOString(),
    };
    transactions.set(reference, tx);
    options.onCollect?.(tx);
    // GUESS: the USSD codes are the operators' usual ones, not promised by Campay.
    return {
      status: 200,
      body: { reference, ussd_code: operator === 'MTN' ? ussdCode : '#150*50#', operator },
    };
  }

  /** The documented status/callback fields (amount as a number here: GUESS). */
  function transactionFields(tx: FakeCampayTransaction) {
    return {
      reference: tx.reference,
      external_reference: tx.external_reference,
      status: tx.status,
      amount: Number(tx.amount),
      currency: tx.currency,
      operator: tx.operator,
      code: tx.code,
      operator_reference: tx.operator_reference,
      reason: tx.reason,
      phone_number: tx.from,
      endpoint: 'collect',
    };
  }

  function handleTransaction(path: string): FakeCampayResponse {
    const tx = transactions.get(decodeURIComponent(path.split('/')[3] ?? ''));
    return tx ? { status: 200, body: transactionFields(tx) } : NOT_FOUND;
  }

  async function respond(req: IncomingMessage, res: ServerResponse, entry: FakeCampayRequest) {
    const { route, body } = entry;
    if (route === null) return send(res, entry, NOT_FOUND);
    const scripted = queued[route].shift();
    if (scripted === 'hang') return;
    if (route === 'token') {
      if (scripted && scripted !== 'lose-answer') tokenRequests += 1;
      return send(
        res,
        entry,
        scripted && scripted !== 'lose-answer' ? scripted : handleToken(body),
      );
    }
    if (scripted && scripted !== 'lose-answer') return send(res, entry, scripted);
    if (!authorized(req)) return send(res, entry, INVALID_TOKEN);
    if (scripted === 'lose-answer') {
      handleCollect(body);
      return;
    }
    if (route === 'history') return send(res, entry, historyAnswer(transactions.values(), body));
    send(res, entry, route === 'collect' ? handleCollect(body) : handleTransaction(entry.path));
  }

  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const entry: FakeCampayRequest = {
        method,
        path,
        route: routeOf(method, path),
        authorization: req.headers.authorization ?? null,
        body: await readBody(req),
        status: null,
      };
      requests.push(entry);
      await respond(req, res, entry);
      options.onRequest?.(entry);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  function requireTransaction(reference: string): FakeCampayTransaction {
    const tx = transactions.get(reference);
    if (!tx) throw new Error(`Fake Campay has no transaction ${reference}`);
    return tx;
  }

  const signCallback = (signOptions?: SignCallbackOptions) =>
    signCampayCallback(webhookKey, now(), signOptions);

  async function callbackFields(
    reference: string,
    signOptions?: SignCallbackOptions,
  ): Promise<Record<string, string>> {
    // The status call's fields, as strings (a GET callback has nothing else), plus signature.
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(transactionFields(requireTransaction(reference)))) {
      fields[key] = value === null ? '' : String(value);
    }
    return { ...fields, signature: await signCallback(signOptions) };
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
      queued.collect.push(collectError(errorCode, message ?? `Campay error ${errorCode}`, status));
    },
    hangNext(route) {
      queued[route].push('hang');
    },
    loseNextCollectAnswer() {
      queued.collect.push('lose-answer');
    },
    expireAllTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    settle(reference, status, reason) {
      const tx = requireTransaction(reference);
      tx.status = status;
      if (reason !== undefined) tx.reason = reason;
      if (status === 'SUCCESSFUL' && tx.operator_reference === null) {
        // GUESS: the operator's reference format is the operator's; any digits will do.
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
      return deliverCampayCallback(url, await callbackFields(reference, signOptions), delivery);
    },
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
