import { setTimeout } from 'node:timers/promises';
import { type InitiationView, slotTaken } from '../bookings/bookings.module.js';

/** How long the first initiation waits for others to join its read. */
const BATCH_WINDOW_MS = 1;
/** Initiations read by one statement at most (two parameters each). */
const MAX_BATCH = 500;

export interface SlotDate {
  serviceId: string;
  slotId: string;
  date: string;
}

export interface Initiation {
  phone: string;
  reference: string;
}

interface Waiting {
  initiation: Initiation;
  attempt: (view: InitiationView) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * What the read alone answers for an initiation, with no lock and no write: the slot cannot
 * be booked (not found, past, closed…), or every seat is taken by other people. Null when
 * the initiation must be attempted: a seat may be free, the number holds one (its new
 * initiation replaces it), or the reference is known (a replay answers with its payment whatever the slot).
 */
export function settledByRead(view: InitiationView): Error | null {
  if (view.knownReference) return null;
  try {
    view.bookable();
  } catch (error) {
    return error as Error;
  }
  return view.takenByOthers ? slotTaken() : null;
}

/**
 * Initiations on one slot-date take turns in this process, and those waiting for their turn
 * are read together (measured with 200 people on the last seat). One read answers
 * every waiting initiation; those it settles are answered at once. Of the others, as many as there are
 * free seats are attempted side by side (each transaction takes the slot's lock; replays of a
 * known reference go along), and the rest wait to be read again, since those attempts may
 * take the last seats. So a burst on a full slot costs one read, not a transaction per
 * initiation queued behind the slot's lock. Across processes, the slot's lock and the unique index
 * still decide who gets a seat.
 */
export class InitiationQueue {
  private readonly queues = new Map<string, Waiting[]>();

  constructor(
    private readonly read: (
      slot: SlotDate,
      initiations: readonly Initiation[],
    ) => Promise<InitiationView[]>,
  ) {}

  run<T>(
    slot: SlotDate,
    initiation: Initiation,
    attempt: (view: InitiationView) => Promise<T>,
  ): Promise<T> {
    const key = `${slot.serviceId}/${slot.slotId}/${slot.date}`;
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting = {
        initiation,
        attempt,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      const queue = this.queues.get(key);
      if (queue) {
        queue.push(waiting);
        return;
      }
      const fresh = [waiting];
      this.queues.set(key, fresh);
      void this.drain(key, slot, fresh);
    });
  }

  /** Slot-dates with initiations running or waiting (for tests). */
  get size(): number {
    return this.queues.size;
  }

  private async drain(key: string, slot: SlotDate, queue: Waiting[]): Promise<void> {
    try {
      while (queue.length > 0) {
        // A millisecond first: the initiations of a burst, still arriving on their connections, join
        // this read instead of each waiting for its own (PGlite's reads block the event loop
        // while they run, so without it a burst is read about one initiation at a time).
        await setTimeout(BATCH_WINDOW_MS);
        const batch = queue.splice(0, MAX_BATCH);
        let views: InitiationView[];
        try {
          views = await this.read(
            slot,
            batch.map((waiting) => waiting.initiation),
          );
        } catch (error) {
          for (const waiting of batch) waiting.reject(error);
          continue;
        }
        const attempts: [Waiting, InitiationView][] = [];
        for (const [i, waiting] of batch.entries()) {
          const view = views[i];
          const settled = view ? settledByRead(view) : new Error('an initiation was not read');
          if (settled) waiting.reject(settled);
          else if (view) attempts.push([waiting, view]);
        }
        // Replays take no seat; of the others, one per free seat (one at least: a number's
        // own hold is replaced, so its initiation may be attempted on a full slot).
        const replays = attempts.filter(([, view]) => view.knownReference);
        const seated = attempts.filter(([, view]) => !view.knownReference);
        const seats = Math.max(1, seated[0]?.[1].seatsFree ?? 0);
        const now = [...replays, ...seated.slice(0, seats)];
        queue.unshift(...seated.slice(seats).map(([waiting]) => waiting));
        await Promise.all(
          now.map(([waiting, view]) => waiting.attempt(view).then(waiting.resolve, waiting.reject)),
        );
      }
    } finally {
      this.queues.delete(key);
    }
  }
}
