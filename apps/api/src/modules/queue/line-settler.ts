/**
 * The "you are N-th" SMS after Call next, decided after the answer (decision 126). A call
 * moves every place in its services' lines, and deciding who is now near the head means
 * reading the whole line: at twenty calls a second that read, made once per call before
 * answering, was most of a clerk's wait. Here it runs after the clerk has the answer, once per
 * organization at a time in this process: calls that land while a pass runs are covered by
 * one more pass after it, which reads the line as it then stands. A pass starts a moment
 * (`gatherMs`) after the call that asked for it, so that the calls of twenty counters share
 * one read of the line: a "you are 3rd" SMS leaves 0.2 s later, and PGlite, which runs one
 * statement at a time, read the whole line once per call (decision 129). Each SMS is still claimed by
 * a conditional update of its visit (near_notified_at), so passes in two processes never send
 * one twice, and a pass lost with its process is made good by the next change's.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/schema.js';
import { settleAfterCommit } from './queue-settle.js';
import type { TurnMessages } from './turn-messages.js';

/** How long a pass waits for more calls to share its read of the line (ms). */
const GATHER_MS = 200;

interface Pass {
  /** The pass under way. */
  running: Promise<void>;
  /** It has read the line (until then, a call that lands is covered by it). */
  reading: boolean;
  /** A change landed after it started: one more pass follows, and this is when it ends. */
  next: Promise<void> | null;
}

export class LineSettler {
  private readonly passes = new Map<string, Pass>();
  /** The time of the latest call per organization: a pass decides as of it. */
  private readonly latest = new Map<string, Date>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      turns: TurnMessages;
      log?: Pick<FastifyBaseLogger, 'error'> | undefined;
      /** How long a pass waits for more calls to share it (ms). */
      gatherMs?: number;
      /** The pass itself (tests count them): by default the day read and its SMS decided. */
      settle?: (organizationId: string, now: Date) => Promise<unknown>;
    },
  ) {}

  /**
   * After a change to the organization's line has committed: resolves once a pass that read
   * the line after that change has ended (never rejects; a failure is logged).
   */
  schedule(organizationId: string): Promise<void> {
    this.latest.set(organizationId, this.deps.clock.now());
    const pass = this.passes.get(organizationId);
    if (!pass) return this.start(organizationId);
    if (!pass.reading) return pass.running;
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
    const pass: Pass = { running: Promise.resolve(), reading: false, next: null };
    const gather = new Promise<void>((r) => setTimeout(r, this.deps.gatherMs ?? GATHER_MS));
    const running = gather
      .then(() => {
        pass.reading = true;
        const now = this.latest.get(organizationId) ?? this.deps.clock.now();
        return this.deps.settle
          ? this.deps.settle(organizationId, now)
          : settleAfterCommit(this.deps.db, organizationId, now, this.deps.turns);
      })
      .then(
        () => undefined,
        (err: unknown) => {
          this.deps.log?.error(
            { err, organizationId },
            'queue: the line settle after a call failed',
          );
        },
      );
    pass.running = running;
    this.passes.set(organizationId, pass);
    void running.then(() => {
      // The pass that follows (if any) has already replaced this one in the map.
      if (this.passes.get(organizationId) === pass && pass.next === null) {
        this.passes.delete(organizationId);
        this.latest.delete(organizationId);
      }
    });
    return running;
  }
}
