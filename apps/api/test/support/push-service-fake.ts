import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { PushPayload } from '@qless/contract';
// @ts-expect-error http_ece ships no types: decrypt(buffer, { version, privateKey, authSecret }).
import ece from 'http_ece';
import { readBody } from './read-body.js';

/**
 * A local stand-in for a browser's push service (RFC 8030 with VAPID, RFC 8292, and the
 * aes128gcm payload encryption of RFC 8291), as Chrome's and Firefox's are documented: a POST
 * to the subscription's endpoint with `TTL`, `Urgency`, `Content-Encoding: aes128gcm` and
 * `Authorization: vapid t={JWT}, k={public key}`; answered 201 with a Location, or what the test
 * scripts (404/410 for a subscription gone, 429, 500). It checks the VAPID signature and its
 * audience as a real service does (403 when wrong), and the test decrypts what arrived with
 * the phone's private key, as the browser would.
 */
export interface FakePhone {
  /** PushSubscription.toJSON() as the browser gives it. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  auth: string;
}

export interface ReceivedPush {
  /** The endpoint's last path segment (the phone's name). */
  phone: string;
  ttl: number;
  urgency: string | null;
  body: Buffer;
}

export interface FakePushService {
  origin: string;
  /** A phone subscribed at this service (a stubbed pushManager.subscribe returns it). */
  phone(name: string): FakePhone;
  received: ReceivedPush[];
  /** The status the next posts get, in order; then 201. */
  answerNext(...statuses: number[]): void;
  /** What a push said, decrypted with its phone's keys. */
  open(push: ReceivedPush, phone: FakePhone): PushPayload;
  close(): Promise<void>;
}

/** Whether `Authorization: vapid t=…, k=…` is signed by k, for this service, and not expired. */
function vapidValid(header: string | undefined, origin: string): boolean {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m?.[1] || !m[2]) return false;
  const [head, claims, signature] = m[1].split('.');
  if (!head || !claims || !signature) return false;
  const raw = Buffer.from(m[2], 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) return false;
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  // Expired, or valid for more than a day (RFC 8292 §2): refused.
  const now = Date.now() / 1000;
  const fresh = typeof body.exp === 'number' && body.exp > now && body.exp <= now + 86_400;
  return signed && body.aud === origin && typeof body.sub === 'string' && fresh;
}

export async function startPushServiceFake(): Promise<FakePushService> {
  const received: ReceivedPush[] = [];
  const scripted: number[] = [];
  const sockets = new Set<Socket>();
  let origin = '';
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const phone = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || !phone) {
      res.writeHead(404).end();
      return;
    }
    if (!vapidValid(req.headers.authorization, origin)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('bad VAPID');
      return;
    }
    if (req.headers['content-encoding'] !== 'aes128gcm' || req.headers.ttl === undefined) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad headers');
      return;
    }
    const status = scripted.shift() ?? 201;
    if (status === 201) {
      received.push({
        phone,
        ttl: Number(req.headers.ttl),
        urgency: (req.headers.urgency as string | undefined) ?? null,
        body,
      });
      res.writeHead(201, { location: `${origin}/m/${randomBytes(8).toString('hex')}` }).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    phone(name) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      return {
        ecdh,
        auth,
        subscription: {
          endpoint: `${origin}/push/${name}`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
        },
      };
    },
    answerNext: (...statuses) => scripted.push(...statuses),
    open(push, phone) {
      const plain = ece.decrypt(push.body, {
        version: 'aes128gcm',
        privateKey: phone.ecdh,
        authSecret: phone.auth,
      }) as Buffer;
      return JSON.parse(plain.toString('utf8')) as PushPayload;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
