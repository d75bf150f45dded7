/**
 * The counter: open, pause, close; Call next, a call out of order, Start, Recall, No-show,
 * Done, Transfer (its acts
 * under the counter's own lock, Call next's claim under the queue lock: counter-actions.ts);
 * Undo of the last act within its window and a no-show put back in line (counter-undo.ts).
 */
import type { CounterAction, CounterActionResponse, QueueVisit } from '@qless/contract';
import type { AuthContext } from '../../core/access/auth-guard.js';
import { type ActTarget, CounterActions } from './counter-actions.js';
import { putNoShowBack, undoLast } from './counter-undo.js';
import type { LineSettler } from './line-settler.js';
import type { QueueServiceDeps } from './queue-deps.js';

export class CounterDesk {
  private readonly counters: CounterActions;

  constructor(
    private readonly deps: QueueServiceDeps,
    lines: LineSettler,
  ) {
    this.counters = new CounterActions(deps, lines);
  }

  counterState(
    auth: AuthContext,
    counterId: string,
    state: 'open' | 'paused' | 'closed',
  ): Promise<CounterActionResponse> {
    return this.counters.counterState(auth, counterId, state);
  }

  act(
    auth: AuthContext,
    counterId: string,
    action: CounterAction,
    target: ActTarget = {},
  ): Promise<CounterActionResponse> {
    return this.counters.act(auth, counterId, action, target);
  }

  undo(auth: AuthContext, counterId: string): Promise<CounterActionResponse> {
    return undoLast(this.deps, auth, counterId);
  }

  putBack(auth: AuthContext, visitId: string): Promise<QueueVisit> {
    return putNoShowBack(this.deps, auth, visitId);
  }
}
