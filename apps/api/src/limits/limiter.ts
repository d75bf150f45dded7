import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { DB } from '../db/schema.js';
import { storableText } from '../db/storable.js';
import { AppError } from '../errors.js';
import { clientAddressKey } from './client-address.js';
import { counterStoreOf } from './counter-store.js';
import {
  type BudgetLimitName,
  type CounterLimitName,
  declarationOf,
  LIMITS,
  type Per,
  type RefusingLimitName,
} from './declarations.js';

/** One count against a limit; `of` names whose (an address, an e-mail, a code). */
export interface Count<Name extends CounterLimitName = RefusingLimitName> {
  limit: Name;
  /** Whose: unused for a limit counted for everyone. */
  of?: string;
  /** The client address, for a limit counted per subject from one client address. */
  from?: string;
  /**
   * A ceiling that a first try passes: once this limit is spent, the attempt is still let
   * through to its check when, on the limit named here (counted earlier in the same call),
   * it is the first of its window: a place that has not failed. Failures from elsewhere
   * then cannot lock the rightful owner out; each new place costs the guesser a new address.
   */
  passesFirstTryOf?: RefusingLimitName;
}

/** What the key of a counter appends for the one counted (bounded, never a raw e-mail). */
function subjectKey(per: Per, of: string, from: string): string {
  switch (per) {
    case 'client address':
      return clientAddressKey(of);
    // Hashed: the pair is long, and holds an e-mail.
    case 'e-mail address, from one client address':
    case 'ticket code, from one client address':
      return createHash('sha256')
        .update(`${of}\n${clientAddressKey(from)}`)
        .digest('hex');
    // Hashed: an e-mail may be longer than a counter key, and need not sit in that table.
    case 'e-mail address':
    case 'invited e-mail address':
      return createHash('sha256').update(of).digest('hex');
    case 'callback client':
      return storableText(of).slice(0, 100);
    case 'everyone':
      return '';
    default:
      return of;
  }
}

interface Counter<Name extends CounterLimitName> {
  key: string;
  windowMs: number;
  max: number;
  name: Name;
}

/**
 * The one way to count a request against `counter` limits (declarations.ts): in the
 * database (one atomic upsert per key) or in Redis when app.ts chose it (decision 033), so
 * every process adds to one count.
 */
export function limiter(db: Kysely<DB>, clock: Clock, config: Config) {
  const counters = counterStoreOf(config, db);
  const counterOf = <Name extends CounterLimitName>({
    limit,
    of = '',
    from = '',
  }: Count<Name>): Counter<Name> => {
    const declared = declarationOf(limit);
    if (!declared.windowMs) throw new Error(`limit ${limit} has no window`);
    return {
      key: `${declared.key ?? `${limit}:`}${subjectKey(declared.per, of, from)}`,
      windowMs: declared.windowMs(config),
      max: declared.max(config),
      name: limit,
    };
  };

  /**
   * Counts each in order and answers with the first limit exceeded (its refusal, and
   * retry-after); later ones are not counted then, so one client over its own limit does
   * not use up everyone's.
   */
  const count = async (
    reply: FastifyReply,
    counts: Count[],
    at: Date,
  ): Promise<Counter<RefusingLimitName>[]> => {
    const counted: Counter<RefusingLimitName>[] = [];
    const hits = new Map<RefusingLimitName, number>();
    for (const one of counts) {
      const counter = counterOf(one);
      counted.push(counter);
      const hit = await counters.hit(counter.key, counter.windowMs, at);
      hits.set(counter.name, hit.count);
      const firstTry = one.passesFirstTryOf && hits.get(one.passesFirstTryOf) === 1;
      if (hit.count > counter.max && !firstTry) {
        const refusal = LIMITS[counter.name].refusal;
        reply.header('retry-after', Math.max(1, Math.ceil(hit.ttlMs / 1000)));
        throw new AppError(refusal.status, refusal.code, refusal.message);
      }
    }
    return counted;
  };

  return {
    /** Counts the request; 429 at the first limit it exceeds. */
    async enforce(reply: FastifyReply, counts: Count[]): Promise<void> {
      await count(reply, counts, clock.now());
    },

    /**
     * Counts an attempt BEFORE it is checked, so attempts sent in parallel cannot all pass
     * a read made while the others are checked. `succeeded` gives back the counts whose
     * limits say so (a right password is not a failure).
     */
    async reserve(reply: FastifyReply, counts: Count[]): Promise<{ succeeded(): Promise<void> }> {
      const at = clock.now();
      const counted = await count(reply, counts, at);
      return {
        async succeeded() {
          for (const c of counted) {
            if (declarationOf(c.name).takenBackOnSuccess) {
              await counters.release(c.key, c.windowMs, at);
            }
          }
        },
      };
    },

    /** Takes one from a budget that refuses nothing (false: spent, skip the extra work). */
    async withinBudget(one: Count<BudgetLimitName>): Promise<boolean> {
      const counter = counterOf(one);
      const hit = await counters.hit(counter.key, counter.windowMs, clock.now());
      return hit.count <= counter.max;
    },
  };
}

export type Limiter = ReturnType<typeof limiter>;
