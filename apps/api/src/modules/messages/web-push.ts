import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PushPayload } from '@qless/contract';
import webpush from 'web-push';
import type { Config } from '../../config.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/schema.js';
import { getOrCreateSecret, getOrCreateSecretWith } from '../../db/secrets.js';
import type { ChannelSender, DeliveryResult } from '../outbox/outbox.module.js';

/** Where the VAPID key pair lives (app_secrets), generated once, shared by every process. */
const VAPID_SECRET = 'web_push_vapid';
/** Where the key that signs push receipts lives. */
const RECEIPT_SECRET = 'push_receipt_hmac';

interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * Whether a subscription's endpoint is at one of the push services the server may post to
 * (PUSH_SERVICE_ORIGINS): the browser names the endpoint, so without this a page could make the
 * server post wherever it likes.
 */
export function pushServiceAllowed(endpoint: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const origin = url.origin.toLowerCase();
  return origins.some((allowed) => {
    const wildcard = /^(https?):\/\/\*\.(.+)$/.exec(allowed);
    if (!wildcard) return origin === allowed;
    return (
      url.protocol === `${wildcard[1]}:` && !url.port && url.hostname.endsWith(`.${wildcard[2]}`)
    );
  });
}

/**
 * The server's side of web push: its VAPID keys (made once, kept in app_secrets like the other
 * keys), the receipts a shown push gives back, and the outbox channel that posts to push services.
 */
export class WebPush {
  private keys: Promise<VapidKeys> | null = null;
  private receiptKey: Promise<Buffer> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Config['push'],
  ) {}

  get enabled(): boolean {
    return this.config.enabled;
  }

  vapidKeys(): Promise<VapidKeys> {
    this.keys ??= getOrCreateSecretWith(this.db, VAPID_SECRET, async () =>
      JSON.stringify(webpush.generateVAPIDKeys()),
    ).then((json) => JSON.parse(json) as VapidKeys);
    return this.keys;
  }

  allows(endpoint: string): boolean {
    return pushServiceAllowed(endpoint, this.config.serviceOrigins);
  }

  private receiptSecret(): Promise<Buffer> {
    this.receiptKey ??= getOrCreateSecret(this.db, RECEIPT_SECRET).then((s) => Buffer.from(s));
    return this.receiptKey;
  }

  /** `{outbox id}.{mac}`: given back by the service worker once the push is shown. */
  async receiptFor(outboxId: string): Promise<string> {
    return `${outboxId}.${mac(await this.receiptSecret(), outboxId)}`;
  }

  /** The outbox row a receipt is for, or null when it is not one of ours. */
  async outboxIdOf(receipt: string): Promise<string | null> {
    const [id, given] = receipt.split('.');
    if (!id || !given || !/^[0-9a-f-]{36}$/.test(id)) return null;
    const expected = Buffer.from(mac(await this.receiptSecret(), id));
    const presented = Buffer.from(given);
    return presented.length === expected.length && timingSafeEqual(presented, expected) ? id : null;
  }

  /**
   * The outbox's push channel: a message's `to` is a subscription's id and its text the
   * payload (title, body, url) as JSON. A push service's 201 is "accepted", recorded as sent;
   * delivered is only what the service worker reports. 404 or 410: the subscription is gone,
   * marked so, and never used again.
   */
  sender(): ChannelSender {
    return {
      provider: 'web-push',
      deliver: (to, message, ref) => this.deliver(to, message.text, ref),
      close: async () => {},
    };
  }

  private async deliver(
    subscriptionId: string,
    text: string,
    ref: { outboxId: string; ttlSeconds: number },
  ): Promise<DeliveryResult> {
    const sub = await this.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('id', '=', subscriptionId)
      .executeTakeFirst();
    if (!sub || sub.gone_at) return { ok: false, error: 'subscription gone', permanent: true };
    if (!this.allows(sub.endpoint)) {
      return { ok: false, error: 'push service not allowed', permanent: true };
    }
    const written = JSON.parse(text) as Omit<PushPayload, 'receipt'>;
    const payload: PushPayload = { ...written, receipt: await this.receiptFor(ref.outboxId) };
    const keys = await this.vapidKeys();
    const request = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: this.config.contact, ...keys },
        TTL: Math.max(0, Math.floor(ref.ttlSeconds)),
        urgency: 'high',
        contentEncoding: 'aes128gcm',
      },
    );
    const response = await fetch(request.endpoint, {
      method: 'POST',
      headers: request.headers as Record<string, string>,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(this.config.timeoutMs),
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) {
      const location = response.headers.get('location');
      return { ok: true, providerMessageId: location ? location.slice(-200) : null };
    }
    // 404/410: the subscription ended; 403: it was made with another server key (RFC 8292).
    if (response.status === 404 || response.status === 410 || response.status === 403) {
      await this.db
        .updateTable('push_subscriptions')
        .set({ gone_at: this.clock.now() })
        .where('id', '=', sub.id)
        .execute();
      return {
        ok: false,
        error: `push service ${response.status}: subscription gone`,
        permanent: true,
      };
    }
    const retryable = response.status === 429 || response.status >= 500;
    return { ok: false, error: `push service ${response.status}`, permanent: !retryable };
  }
}

function mac(secret: Buffer, id: string): string {
  return createHmac('sha256', secret)
    .update(`push-receipt:v1:${id}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}
