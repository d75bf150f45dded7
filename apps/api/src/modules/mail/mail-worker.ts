import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import { PeriodicSweep } from '../../periodic.js';
import { claimDueMail, markFailed, markSent } from './mail.repository.js';
import { describeMailError, type MailTransport } from './mail-transport.js';

export interface MailWorkerConfig {
  intervalMs: number;
  maxAttempts: number;
  /** Wait after the first failure, doubled after each further one. */
  retryBaseMs: number;
  /** For describing errors without the credentials in it. */
  smtpUrl: string | null;
  batchSize?: number;
  /** How long a claimed mail is this process's to send before others may try it. */
  leaseMs?: number;
}

export interface MailSweepResult {
  sent: number;
  failed: number;
  gaveUp: number;
}

const BATCH_SIZE = 20;
/** Longer than one send can take (the transport's timeouts are 15 s per step). */
const LEASE_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 3_600_000;

/** Wait before attempt `attempts + 1`, after `attempts` failures: base, 2×base, 4×base… ≤ 1 h. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Delivers the outbox. Each sweep claims due mail in a short transaction (SKIP LOCKED, so
 * several processes share the work and never send one mail twice), sends it outside any
 * transaction, and records the outcome: sent, retried later with backoff, or given up after
 * `maxAttempts`. Bodies hold sign-in links: they are never logged.
 */
export class MailWorker {
  private readonly loop: PeriodicSweep;

  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      clock: Clock;
      transport: MailTransport;
      config: MailWorkerConfig;
      log: FastifyBaseLogger;
    },
  ) {
    this.loop = new PeriodicSweep(
      () => this.sweep(),
      deps.config.intervalMs,
      (err: unknown) => deps.log.error({ err }, 'mail sweep failed'),
    );
  }

  async sweep(): Promise<MailSweepResult> {
    const { db, clock, transport, config, log } = this.deps;
    const result: MailSweepResult = { sent: 0, failed: 0, gaveUp: 0 };
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + (config.leaseMs ?? LEASE_MS));
    const claimed = await db
      .transaction()
      .execute((trx) => claimDueMail(trx, now, leaseUntil, config.batchSize ?? BATCH_SIZE));
    for (const mail of claimed) {
      try {
        await transport.send({
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body,
        });
        await markSent(db, mail.id, clock.now());
        result.sent += 1;
      } catch (err) {
        const error = describeMailError(err, config.smtpUrl);
        const giveUp = mail.attempts >= config.maxAttempts;
        const retryAt = giveUp
          ? null
          : new Date(clock.now().getTime() + retryDelayMs(mail.attempts, config.retryBaseMs));
        await markFailed(db, mail.id, error, retryAt);
        if (giveUp) result.gaveUp += 1;
        else result.failed += 1;
        log.warn(
          { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, error, gaveUp: giveUp },
          giveUp ? 'mail given up' : 'mail delivery failed; will retry',
        );
      }
    }
    return result;
  }

  /** Sweeps every `intervalMs` (see PeriodicSweep). */
  start(): void {
    this.loop.start();
  }

  /** Stops the loop, waits for a sweep in flight and closes the transport. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.deps.transport.close();
  }
}
