import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { smsParts } from '../../src/providers/sms/sms-text.js';
import { readText } from './read-body.js';

/**
 * A local stand-in for Africa's Talking's SMS API (POST /version1/messaging), as its
 * documentation and official SDKs describe it: form-encoded `username`, `to`, `message`
 * and optional `from`, the key in an `apiKey` header, `Accept: application/json`; answer
 * 201 with `SMSMessageData.Recipients[]` carrying each number's `statusCode`, `status`,
 * `messageId`, `cost` and `messageParts`.
 *
 * Where the documentation says nothing the fake must still answer; each such choice is
 * marked GUESS. A test scripts what the next requests get with `answerNext`.
 */
export type FakeAtAnswer =
  /** 201, statusCode 101 Success. */
  | 'accept'
  /** 201 (GUESS: the HTTP status of a refused recipient), statusCode 403 InvalidPhoneNumber. */
  | 'invalid_number'
  /** 201 (GUESS), statusCode 405 InsufficientBalance. */
  | 'insufficient_balance'
  /** 409 with the documented body: statusCode 409 DoNotDisturbRejection. */
  | 'do_not_disturb'
  /** 500 with a plain-text body (GUESS). */
  | 'server_error'
  /** Reads the request and never answers. */
  | 'hang';

export interface FakeAtRequest {
  username: string;
  to: string;
  message: string;
  from: string | null;
  answer: FakeAtAnswer | 'bad_key' | 'bad_request';
}

export interface FakeAfricasTalking {
  /** AFRICASTALKING_BASE_URL for the app. */
  baseUrl: string;
  username: string;
  apiKey: string;
  requests: FakeAtRequest[];
  /** The message id of each message it accepted, by number, in order. */
  accepted: { to: string; messageId: string }[];
  /** What the next requests get, in order; then `accept`. */
  answerNext(...answers: FakeAtAnswer[]): void;
  close(): Promise<void>;
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * A delivery report as the gateway posts it to the account's callback URL (its SMS
 * documentation): form-encoded `id`, `status` (Sent, Submitted, Buffered, Rejected, Success,
 * Failed, AbsentSubscriber, Expired), `phoneNumber`, `networkCode`, `retryCount`, and
 * `failureReason` when it failed.
 */
export function deliveryReportForm(
  message: { to: string; messageId: string },
  status: string,
  failureReason?: string,
): string {
  return new URLSearchParams({
    id: message.messageId,
    status,
    phoneNumber: message.to,
    networkCode: '62401',
    retryCount: '0',
    ...(failureReason ? { failureReason } : {}),
  }).toString();
}

function recipients(to: string, statusCode: number, status: string, message: string) {
  const ok = statusCode < 200;
  const parts = smsParts(message);
  return {
    SMSMessageData: {
      Message: ok
        ? `Sent to 1/1 Total Cost: XAF ${(parts * 20).toFixed(4)}`
        : 'Sent to 0/1 Total Cost: 0',
      Recipients: [
        {
          statusCode,
          number: to,
          status,
          cost: ok ? `XAF ${(parts * 20).toFixed(4)}` : '0',
          messageId: ok ? `ATXid_${randomBytes(16).toString('hex')}` : 'None',
          ...(ok ? { messageParts: parts } : {}),
        },
      ],
    },
  };
}

export async function startFakeAfricasTalking(
  options: { username?: string; apiKey?: string } = {},
): Promise<FakeAfricasTalking> {
  const username = options.username ?? 'qless-test';
  const apiKey = options.apiKey ?? `atsk_${randomBytes(24).toString('hex')}`;
  const requests: FakeAtRequest[] = [];
  const accepted: { to: string; messageId: string }[] = [];
  const script: FakeAtAnswer[] = [];
  const sockets = new Set<Socket>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readText(req);
    if (req.method !== 'POST' || req.url !== '/version1/messaging') {
      res.writeHead(404, TEXT).end('Not found');
      return;
    }
    const form = new URLSearchParams(body);
    const record: FakeAtRequest = {
      username: form.get('username') ?? '',
      to: form.get('to') ?? '',
      message: form.get('message') ?? '',
      from: form.get('from'),
      answer: 'accept',
    };
    requests.push(record);
    // GUESS: a wrong key is refused with 401 and a plain-text body.
    if (req.headers.apikey !== apiKey) {
      record.answer = 'bad_key';
      res.writeHead(401, TEXT).end('The supplied authentication is invalid');
      return;
    }
    const wellFormed =
      (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') &&
      (req.headers.accept ?? '').includes('application/json') &&
      record.username === username &&
      /^\+\d{8,15}$/.test(record.to) &&
      record.message !== '';
    if (!wellFormed) {
      // GUESS: a malformed request is a 400 with a plain-text reason.
      record.answer = 'bad_request';
      res.writeHead(400, TEXT).end('Request is missing required form field');
      return;
    }
    const answer = script.shift() ?? 'accept';
    record.answer = answer;
    switch (answer) {
      case 'accept': {
        const body = recipients(record.to, 101, 'Success', record.message);
        const messageId = body.SMSMessageData.Recipients[0]?.messageId ?? '';
        accepted.push({ to: record.to, messageId });
        res.writeHead(201, JSON_TYPE).end(JSON.stringify(body));
        return;
      }
      case 'invalid_number':
        res
          .writeHead(201, JSON_TYPE)
          .end(JSON.stringify(recipients(record.to, 403, 'InvalidPhoneNumber', record.message)));
        return;
      case 'insufficient_balance':
        res
          .writeHead(201, JSON_TYPE)
          .end(JSON.stringify(recipients(record.to, 405, 'InsufficientBalance', record.message)));
        return;
      case 'do_not_disturb':
        res
          .writeHead(409, JSON_TYPE)
          .end(JSON.stringify(recipients(record.to, 409, 'DoNotDisturbRejection', record.message)));
        return;
      case 'server_error':
        res.writeHead(500, TEXT).end('Internal Server Error');
        return;
      case 'hang':
        return;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500, TEXT).end('fake failed'));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    username,
    apiKey,
    requests,
    accepted,
    answerNext: (...answers) => {
      script.push(...answers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
