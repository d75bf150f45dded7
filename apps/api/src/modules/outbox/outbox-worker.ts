import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { DB, OutboxChannel, OutboxRow } from '../../db/schema.js';
import { PeriodicSweep } from '../../periodic.js';
import type { Metrics, SKIP_LABELS } from '../metrics/metrics.module.js';
import {
  claimDue,
  countSentTo,
  markFailed,
  markSent,
  markSkipped,
  type RenderedMessage,
  releaseClaims,
} from './outbox.repository.js';

/** What a channel made of one message. */
export type DeliveryResult =
  | { ok: true; providerMessageId: string | null }
  | {
      ok: false;
      /** Stored and logged: never the message, the recipient, a link or a credential. */
      error: string;
      /** Trying again cannot help (a number that does not exist…): give up at once. */
      permanent: boolean;
    };

/** One way out: SMTP for e-mail, the SMS provider for SMS. */
export interface ChannelSender {
  /** Recorded with each message it took (smtp, simulator, africastalking). */
  readonly provider: string;
  /**
   * `ref`: the outbox row (a push carries a receipt for it) and how long the message is still
   * worth delivering (a push service keeps it that long at most).
   */
  deliver(
    to: string,
    message: RenderedMessage,
    ref: { outboxId: string; ttlSeconds: number },
  ): Promise<DeliveryResult>;
  close(): Promise<void>;
}

export interface ChannelSetup {
  sender: ChannelSender;
  /** Attempts of one message before it is given up. */
  maxAttempts: number;
  /** Wait after the first failure, doubled after each further one (at most 1 h). */
  retryBaseMs: number;
}

/** A booking message as it stands when it is due: its text, or why it is no longer sent. */
export type Preparation = { send: RenderedMessage } | { skip: string };

export interface RecipientCap {
  channel: OutboxChannel;
  max: number;
  windowMs: number;
  /** The kinds counted, and held back once the cap is reached. */
  kinds: readonly string[];
}

export interface OutboxWorkerConfig {
  intervalMs: number;
  batchSize?: number;
  /** How long a claimed message is this process's to send before others may try it. */
  leaseMs?: number;
}

export interface OutboxSweepResult {
  sent: number;
  failed: number;
  gaveUp: number;
  skipped: number;
}

const BATCH_SIZE = 20;
/** Longer than one sweep's sends can take (see leaseFor). */
const LEASE_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 3_600_000;
/** How long a message without a useful time may wait at a push service: a day. */
const DEFAULT_TTL_MS = 24 * 3_600_000;

/** Wait before attempt `attempts + 1`, after `attempts` failures: base, 2×base, 4×base… ≤ 1 h. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * A lease that outlasts a whole batch sent one message after another, each taking at most
 * `maxSendMs`, so no other process takes a message this one is still about to send.
 */
export function leaseFor(batchSize: number, maxSendMs: number): number {
  return Math.max(LEASE_MS, batchSize * (maxSendMs + 5_000));
}

function storedText(row: OutboxRow): Preparation {
  if (row.text_body === null) return { skip: 'nothing to send' };
  return { send: { subject: row.subject, text: row.text_body, html: row.html_body } };
}

/**
 * Delivers the outbox, every channel this process has a way out for (e-mail only with SMTP;
 * SMS always, through the configured provider). Each sweep claims due messages in a short
 * transaction (SKIP LOCKED, so several processes share the work and never send one message
 * twice), renders booking messages from the booking as it stands (or skips those no longer
 * true), sends outside any transaction, and records the outcome: sent, retried later with
 * backoff, or given up after the channel's `maxAttempts` or a permanent refusal. Bodies hold
 * links and personal data: they are never logged, nor are recipients.
 */
export class OutboxWorker {
  private readonly loop: PeriodicSweep;
  /** Set by stop(): the sweep in flight finishes the message it is sending, hands back the rest. */
  private stopping = false;
  private sendersClosed = false;
  /** Claimed messages handed back by stops (the shutdown log reports it). */
  private handedBack = 0;

  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      clock: Clock;
      channels: Partial<Record<OutboxChannel, ChannelSetup>>;
      /** Renders a booking message, or says why it is no longer to be sent. */
      prepareBookingMessage: (row: OutboxRow, now: Date) => Promise<Preparation>;
      /**
       * Why a message written when queued is no longer to be sent (a waitlist offer that
       * ended), or null to send it.
       */
      skipStoredMessage?: (row: OutboxRow, now: Date) => Promise<string | null>;
      /**
       * How many messages of a channel one recipient may get in a window (the
       * `messages-per-recipient` limit): past it a message of a kind it `applies` to is
       * skipped, not sent.
       */
      recipientCap?: RecipientCap;
      /**
       * Why a due message is held back whatever it says (an organization's SMS budget used
       * up), or null; checked last, just before sending.
       */
      heldBack?: (row: OutboxRow, now: Date) => Promise<string | null>;
      /** Told of each message given up (a failed push brings its SMS forward). */
      onGaveUp?: (row: OutboxRow, now: Date) => Promise<void>;
      config: OutboxWorkerConfig;
      log: FastifyBaseLogger;
      metrics?: Metrics;
    },
  ) {
    this.loop = new PeriodicSweep(
      () => this.sweep(),
      deps.config.intervalMs,
      (err: unknown) => deps.log.error({ err }, 'outbox sweep failed'),
    );
  }

  async sweep(): Promise<OutboxSweepResult> {
    const { db, clock, channels, config } = this.deps;
    const result: OutboxSweepResult = { sent: 0, failed: 0, gaveUp: 0, skipped: 0 };
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + (config.leaseMs ?? LEASE_MS));
    const open = (Object.keys(channels) as OutboxChannel[]).filter((c) => channels[c]);
    const claimed = await db
      .transaction()
      .execute((trx) => claimDue(trx, open, now, leaseUntil, config.batchSize ?? BATCH_SIZE));
    for (const [i, row] of claimed.entries()) {
      if (this.stopping) {
        // Shutting down: the rest of the batch is due again at once, for another process.
        const rest = claimed.slice(i).map((r) => r.id);
        this.handedBack += await releaseClaims(db, rest, leaseUntil, clock.now());
        break;
      }
      const setup = channels[row.channel];
      if (setup) result[await this.handle(row, setup)] += 1;
    }
    return result;
  }

  private async handle(row: OutboxRow, setup: ChannelSetup): Promise<keyof OutboxSweepResult> {
    const { db, clock, log } = this.deps;
    const { sender } = setup;
    const bookingMessage = row.booking_id !== null;
    let prepared: Preparation;
    let delivery: DeliveryResult;
    try {
      prepared = bookingMessage
        ? await this.deps.prepareBookingMessage(row, clock.now())
        : await this.prepareStored(row, clock.now());
      // The kind's own reason first (it says more: "the offer has ended"), then these.
      const notNow = 'send' in prepared ? await this.notNow(row, clock.now()) : null;
      if (notNow) prepared = { skip: notNow };
    } catch (err) {
      const error = `not rendered: ${errorName(err)}`;
      return this.recordFailure(row, setup, { ok: false, permanent: false, error }, null);
    }
    if ('skip' in prepared) {
      await markSkipped(db, row.id, prepared.skip);
      this.deps.metrics?.messageSkipped(row.channel, skipLabel(prepared.skip));
      log.info(
        {
          reqId: row.request_id ?? undefined,
          outboxId: row.id,
          channel: row.channel,
          kind: row.kind,
          reason: prepared.skip,
        },
        'message skipped',
      );
      return 'skipped';
    }
    const rendered = bookingMessage ? prepared.send : null;
    try {
      const ttlMs = row.useful_until
        ? row.useful_until.getTime() - clock.now().getTime()
        : DEFAULT_TTL_MS;
      delivery = await sender.deliver(row.to_address, prepared.send, {
        outboxId: row.id,
        ttlSeconds: Math.max(0, Math.floor(ttlMs / 1000)),
      });
    } catch (err) {
      delivery = { ok: false, permanent: false, error: `send failed: ${errorName(err)}` };
    }
    if (delivery.ok) {
      await markSent(
        db,
        row.id,
        clock.now(),
        { provider: sender.provider, providerMessageId: delivery.providerMessageId },
        rendered,
      );
      this.deps.metrics?.messageSent(row.channel);
      // The id of the request that queued it (decision 029): never the recipient or the text.
      log.info(
        {
          reqId: row.request_id ?? undefined,
          outboxId: row.id,
          channel: row.channel,
          kind: row.kind,
          attempts: row.attempts,
        },
        'message sent',
      );
      return 'sent';
    }
    return this.recordFailure(row, setup, delivery, rendered);
  }

  /**
   * Why a due message is not sent whatever it says: past its useful time ("too late"), or its
   * recipient already got as many as the cap allows in the window ("recipient cap").
   */
  private async tooLateOrCapped(row: OutboxRow, now: Date): Promise<string | null> {
    if (row.useful_until && row.useful_until.getTime() <= now.getTime()) return 'too late';
    const cap = this.deps.recipientCap;
    if (!cap || row.channel !== cap.channel || !cap.kinds.includes(row.kind)) return null;
    const since = new Date(now.getTime() - cap.windowMs);
    const sent = await countSentTo(this.deps.db, row.to_address, cap.channel, cap.kinds, since);
    return sent >= cap.max ? 'recipient cap' : null;
  }

  private async notNow(row: OutboxRow, now: Date): Promise<string | null> {
    return (await this.tooLateOrCapped(row, now)) ?? (await this.deps.heldBack?.(row, now)) ?? null;
  }

  private async prepareStored(row: OutboxRow, now: Date): Promise<Preparation> {
    const skip = await this.deps.skipStoredMessage?.(row, now);
    return skip ? { skip } : storedText(row);
  }

  private async recordFailure(
    row: OutboxRow,
    setup: ChannelSetup,
    delivery: Extract<DeliveryResult, { ok: false }>,
    rendered: RenderedMessage | null,
  ): Promise<'failed' | 'gaveUp'> {
    const { db, clock, log } = this.deps;
    const giveUp = delivery.permanent || row.attempts >= setup.maxAttempts;
    const retryAt = giveUp
      ? null
      : new Date(clock.now().getTime() + retryDelayMs(row.attempts, setup.retryBaseMs));
    const error = giveUp && delivery.permanent ? `${delivery.error} (permanent)` : delivery.error;
    await markFailed(db, row.id, { error, provider: setup.sender.provider, retryAt }, rendered);
    if (giveUp) await this.deps.onGaveUp?.(row, clock.now());
    this.deps.metrics?.deliveryFailed(row.channel, delivery.permanent);
    log.warn(
      {
        reqId: row.request_id ?? undefined,
        outboxId: row.id,
        channel: row.channel,
        kind: row.kind,
        attempts: row.attempts,
        error,
        gaveUp: giveUp,
      },
      giveUp ? 'message given up' : 'message delivery failed; will retry',
    );
    return giveUp ? 'gaveUp' : 'failed';
  }

  /** Sweeps every `intervalMs` (see PeriodicSweep). */
  start(): void {
    this.stopping = false;
    this.loop.start();
  }

  /**
   * Stops the loop and waits for a sweep in flight, which finishes the message it is sending
   * (its outcome is unknown until the channel answers) and hands back the rest of its batch
   * at once instead of leaving them leased for minutes (decision 028). Says how many.
   */
  async stopSweeping(): Promise<{ handedBack: number }> {
    this.stopping = true;
    const before = this.handedBack;
    await this.loop.stop();
    return { handedBack: this.handedBack - before };
  }

  /** Stops sweeping (see stopSweeping) and closes the channels, once. */
  async stop(): Promise<void> {
    await this.stopSweeping();
    if (this.sendersClosed) return;
    this.sendersClosed = true;
    for (const setup of Object.values(this.deps.channels)) await setup?.sender.close();
  }
}

/** A skip reason as a bounded metric label. */
function skipLabel(reason: string): (typeof SKIP_LABELS)[number] {
  if (reason === 'too late') return 'too_late';
  if (reason === 'sms budget') return 'sms_budget';
  return reason === 'recipient cap' ? 'recipient_cap' : 'other';
}

/** An error's class or code only: its message may quote what it was given. */
function errorName(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown };
  if (typeof e?.code === 'string') return e.code;
  return typeof e?.name === 'string' ? e.name : 'error';
}
