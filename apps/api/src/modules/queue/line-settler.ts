/**
 * The "you are N-th" SMS after Call next, decided after the answer (decision 126). A call
 * moves every place in its services' lines, and deciding who is now near the head means
 * reading the whole line: at twenty calls a second that read, made once per call before
 * answering, was most of a clerk's wait. Here it runs after the clerk has the answer, once per
 * organization at a time in this process: calls that land while a pass runs are covered by
 * one more pass after it, which reads the line as it then stands. Each SMS is still claimed by
 * a conditional update of its visit (near_notified_at), so passes in two processes never send
 * one twice, and a pass lost with its process is made good by the next change's.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/schema.js';
import { settleAfterCommit } from './queue-settle.js';
import type { TurnMessages } from './turn-messages.js';

interface Pass {
  /** The pass under way. */
  running: Promise<void>;
  /** A change landed after it started: one more pass follows, and this is when it ends. */
  next: Promise<void> | null;
}

export class LineSettler {
  private readonly passes = new Map<string, Pass>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      turns: TurnMessages;
      log?: Pick<FastifyBaseLogger, 'error'> | undefined;
    },
  ) {}

  /**
   * After a change to the organization's line has committed: resolves once a pass that read
   * the line after that change has ended (never rejects; a failure is logged).
   */
  schedule(organizationId: string): Promise<void> {
    const pass = this.passes.get(organizationId);
    if (!pass) return this.start(organizationId);
    pass.next ??= pass.running.then(() => this.start(organizationId));
    return pass.next;
  }

  /** Every pass under way, ended (the server's close waits for them). */
  async drain(): Promise<void> {
    while (this.passes.size > 0) {
      await Promise.all([...this.passes.values()].map((p) => p.next ?? p.running));
    }
  }

  private start(organizationId: string): Promise<void> {
    const running = settleAfterCommit(
      this.deps.db,
      organizationId,
      this.deps.clock.now(),
      this.deps.turns,
    ).then(
      () => undefined,
      (err: unknown) => {
        this.deps.log?.error({ err, organizationId }, 'queue: the line settle after a call failed');
      },
    );
    const pass: Pass = { running, next: null };
    this.passes.set(organizationId, pass);
    void running.then(() => {
      // The pass that follows (if any) has already replaced this one in the map.
      if (this.passes.get(organizationId) === pass && pass.next === null) {
        this.passes.delete(organizationId);
      }
    });
    return running;
  }
}
