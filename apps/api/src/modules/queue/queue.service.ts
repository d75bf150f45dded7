/**
 * The queue's server core, by job: the waiting line (`line`: the staff screen, walk-ins, the
 * join page, leaving), its setup (`setup`: settings, counters, letters), and the counter
 * (`desk`: counter state and acts, undo, a no-show put back). Every change of the waiting line
 * runs in one transaction under the organization's queue lock (a counter's acts on the visit it
 * holds, under the counter's own lock), writes a visit_events row per transition, queues the
 * SMS it causes and announces itself (notifyQueueChanged) at commit.
 */
import { CounterDesk } from './counter-desk.service.js';
import { LineSettler } from './line-settler.js';
import type { QueueServiceDeps } from './queue-deps.js';
import { QueueLine } from './queue-line.service.js';
import { QueueSetup } from './queue-setup.service.js';

export class QueueService {
  readonly line: QueueLine;
  readonly setup: QueueSetup;
  readonly desk: CounterDesk;
  /** The line's SMS after Call next, decided after the answer (line-settler.ts). */
  readonly lines: LineSettler;

  constructor(deps: QueueServiceDeps) {
    this.lines = new LineSettler(deps);
    this.line = new QueueLine(deps);
    this.setup = new QueueSetup(deps);
    this.desk = new CounterDesk(deps, this.lines);
  }
}
