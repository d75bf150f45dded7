/** What the queue's server core is built with (queue.service.ts's three parts and the files they delegate to). */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/schema.js';
import type { FeedbackRequests } from '../feedback/feedback.module.js';
import type { SelfJoinCeilings } from './self-join-ceiling.js';
import type { TurnMessages } from './turn-messages.js';

export interface QueueServiceDeps {
  db: Db;
  clock: Clock;
  turns: TurnMessages;
  /** The SMS asking for a word once a visit is done; null: none is sent. */
  feedback?: FeedbackRequests | null;
  /** The join page's ceilings (decision 125). */
  selfJoins: SelfJoinCeilings;
  /**
   * The database is one session (PGlite): reads sent apart queue one behind the other for it,
   * so an answer's reads go in one transaction (one turn) instead of several in parallel.
   */
  oneSession?: boolean;
  /** Where work done after an answer reports its failures. */
  log?: Pick<FastifyBaseLogger, 'error'>;
}
