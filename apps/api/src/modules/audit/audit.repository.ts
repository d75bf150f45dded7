import { type AuditEntry, addDays, zonedInstant } from '@qless/contract';
import { sql } from 'kysely';
import { placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AuditFilter {
  /** Only these branches' entries (the organization area); null: every entry (operators). */
  organizations: readonly string[] | null;
  actor?: string | undefined;
  organizationId?: string | undefined;
  action?: string | undefined;
  /** Days, read in `timeZone`; `to` included. */
  from?: string | undefined;
  to?: string | undefined;
  timeZone: string;
  cursor?: string | undefined;
  limit: number;
}

const badCursor = () => new AppError(400, 'INVALID_PAGE', 'This page link is not valid.');

/** The last entry of a page, as the next page starts after it: opaque to clients. */
function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const when = new Date(String(at));
    if (typeof id !== 'string' || !UUID.test(id) || Number.isNaN(when.getTime())) throw badCursor();
    return { at: when, id };
  } catch {
    throw badCursor();
  }
}

/** Entries newest first, a page at a time (keyset on `at, id`: stable while rows arrive). */
export async function listAudit(
  db: Db,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; next_cursor: string | null }> {
  if (filter.from && filter.to && filter.from > filter.to) {
    throw new AppError(400, 'INVALID_DATE_RANGE', 'The first day comes after the last.');
  }
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('organizations as o', 'o.id', 'a.organization_id')
    .select([
      'a.id',
      'a.at',
      'a.actor_user_id',
      'a.actor_role',
      'a.actor_email',
      'a.organization_id',
      sql<string | null>`case when o.id is null then null else ${placeName('o')} end`.as(
        'organization_name',
      ),
      'a.action',
      'a.target',
      'a.outcome',
      'a.client_address',
      'a.user_agent',
      'a.request_id',
    ]);
  if (filter.organizations) {
    if (filter.organizations.length === 0) return { entries: [], next_cursor: null };
    query = query.where('a.organization_id', 'in', [...filter.organizations]);
  }
  if (filter.organizationId) query = query.where('a.organization_id', '=', filter.organizationId);
  if (filter.actor) {
    const actor = filter.actor;
    query = UUID.test(actor)
      ? query.where('a.actor_user_id', '=', actor.toLowerCase())
      : query.where(sql<boolean>`position(lower(${actor}) in a.actor_email) > 0`);
  }
  if (filter.action) {
    // "POST /queue/counters/*": every action under it; else that action exactly.
    const action = filter.action;
    const prefix = action.endsWith('*') ? action.slice(0, -1) : null;
    query = prefix
      ? query.where(sql<boolean>`left(a.action, ${prefix.length}) = ${prefix}`)
      : query.where('a.action', '=', action);
  }
  if (filter.from) query = query.where('a.at', '>=', zonedInstant(filter.from, 0, filter.timeZone));
  if (filter.to) {
    query = query.where('a.at', '<', zonedInstant(addDays(filter.to, 1), 0, filter.timeZone));
  }
  if (filter.cursor) {
    const { at, id } = decodeCursor(filter.cursor);
    query = query.where(sql<boolean>`(a.at, a.id) < (${at}, ${id}::uuid)`);
  }
  const rows = await query
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    entries: page.map((r) => ({ ...r, at: r.at.toISOString() })),
    next_cursor: rows.length > filter.limit && last ? encodeCursor(last.at, last.id) : null,
  };
}

/** Rows per delete; each batch is its own short transaction. */
const PRUNE_BATCH = 5000;

/**
 * Deletes entries older than `before`, the one delete the append-only trigger allows: the
 * transaction says how far it may go (SET LOCAL qless.audit_prune_before), and the trigger
 * refuses any row newer than that (migration 021).
 */
export async function pruneAudit(db: Db, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await db.transaction().execute(async (trx) => {
      await sql`select set_config('qless.audit_prune_before', ${before.toISOString()}, true)`.execute(
        trx,
      );
      const result = await trx
        .deleteFrom('audit_log')
        .where(
          'id',
          'in',
          trx.selectFrom('audit_log').select('id').where('at', '<', before).limit(PRUNE_BATCH),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}
