/**
 * Counters in the database: the admin's list (name, services served, retirement) and the
 * state a clerk sets (open, paused, closed). Nothing is deleted: a retired counter keeps its
 * row, its services and the visits it served.
 */
import type { Counter, CounterState } from '@qless/contract';
import type { CounterRow, Db } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../errors.js';

const NAME_TAKEN = () =>
  new AppError(409, 'INVALID_COUNTER', 'Another counter of this organization has this name.');

/** The counters of an organization still in use, by name, as the API shows them. */
export async function listCounters(db: Db, organizationId: string): Promise<Counter[]> {
  const rows = await db
    .selectFrom('counters')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('retired_at', 'is', null)
    .orderBy('name')
    .execute();
  return countersView(db, rows);
}

/** Rows as the API shows them: their services and the visit each holds. */
export async function countersView(db: Db, rows: CounterRow[]): Promise<Counter[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [links, held] = await Promise.all([
    db
      .selectFrom('counter_services')
      .select(['counter_id', 'service_id', 'helps'])
      .where('counter_id', 'in', ids)
      .orderBy('service_id')
      .execute(),
    db
      .selectFrom('visits')
      .select(['id', 'counter_id'])
      .where('counter_id', 'in', ids)
      .where('state', 'in', ['called', 'serving'])
      .execute(),
  ]);
  return rows.map((r) => ({
    counter_id: r.id,
    name: r.name,
    ...servicesOf(links.filter((l) => l.counter_id === r.id)),
    state: r.state,
    current_visit_id: held.find((h) => h.counter_id === r.id)?.id ?? null,
  }));
}

export async function counterView(db: Db, row: CounterRow): Promise<Counter> {
  const [view] = await countersView(db, [row]);
  if (!view) throw new Error('counter view');
  return view;
}

/** A counter by id, retired ones included (the caller decides what a retired one may do). */
export function findCounter(db: Db, counterId: string): Promise<CounterRow | undefined> {
  return db.selectFrom('counters').selectAll().where('id', '=', counterId).executeTakeFirst();
}

/** The organization's services among `serviceIds`; 400 INVALID_COUNTER when one is not. */
async function assertServicesOf(
  db: Db,
  organizationId: string,
  serviceIds: readonly string[],
): Promise<string[]> {
  const unique = [...new Set(serviceIds)];
  const found = await db
    .selectFrom('services')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', unique)
    .execute();
  if (found.length !== unique.length) {
    throw new AppError(
      400,
      'INVALID_COUNTER',
      'A counter serves services of its organization only.',
    );
  }
  return unique;
}

/** A counter's links as its two lists: its primary services and the lines it helps (139). */
export function servicesOf(links: readonly { service_id: string; helps: boolean }[]): {
  service_ids: string[];
  help_service_ids: string[];
} {
  return {
    service_ids: links.filter((l) => !l.helps).map((l) => l.service_id),
    help_service_ids: links.filter((l) => l.helps).map((l) => l.service_id),
  };
}

/** A counter's services: its primary ones, and the lines it helps (decision 139). */
export interface CounterServicesInput {
  service_ids?: string[] | undefined;
  help_service_ids?: string[] | undefined;
}

/**
 * Sets the counter's primary services and the lines it helps (each given list replaces its
 * kind; a service is one or the other, never both: 400 INVALID_COUNTER).
 */
async function setServices(
  db: Db,
  counter: { id: string; organization_id: string },
  input: CounterServicesInput,
): Promise<void> {
  if (input.service_ids === undefined && input.help_service_ids === undefined) return;
  const current = await db
    .selectFrom('counter_services')
    .select(['service_id', 'helps'])
    .where('counter_id', '=', counter.id)
    .execute();
  const now = servicesOf(current);
  const primary =
    input.service_ids !== undefined
      ? await assertServicesOf(db, counter.organization_id, input.service_ids)
      : now.service_ids;
  const helps =
    input.help_service_ids !== undefined
      ? input.help_service_ids.length > 0
        ? await assertServicesOf(db, counter.organization_id, input.help_service_ids)
        : []
      : now.help_service_ids;
  if (helps.some((id) => primary.includes(id))) {
    throw new AppError(
      400,
      'INVALID_COUNTER',
      'A service is either one the counter serves or one it helps, not both.',
    );
  }
  await db.deleteFrom('counter_services').where('counter_id', '=', counter.id).execute();
  await db
    .insertInto('counter_services')
    .values([
      ...primary.map((service_id) => ({ counter_id: counter.id, service_id, helps: false })),
      ...helps.map((service_id) => ({ counter_id: counter.id, service_id, helps: true })),
    ])
    .execute();
}

export async function createCounter(
  trx: Db,
  organizationId: string,
  input: CounterServicesInput & { name: string; service_ids: string[] },
  now: Date,
): Promise<CounterRow> {
  const row = await trx
    .insertInto('counters')
    .values({ organization_id: organizationId, name: input.name, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? NAME_TAKEN() : err;
    });
  await setServices(trx, row, input);
  return row;
}

/**
 * Renames, changes the services, or retires (`active: false`) a counter. A retired counter
 * is closed; one holding a visit cannot be retired (its clerk finishes first).
 */
export async function updateCounter(
  trx: Db,
  counter: CounterRow,
  patch: CounterServicesInput & { name?: string | undefined; active?: boolean | undefined },
  now: Date,
): Promise<CounterRow> {
  if (counter.retired_at) {
    throw new AppError(404, 'COUNTER_NOT_FOUND', 'This counter was retired.');
  }
  await setServices(trx, counter, patch);
  const retire = patch.active === false;
  if (retire) {
    await releaseSentTo(trx, counter.id);
    const holds = await trx
      .selectFrom('visits')
      .select('id')
      .where('counter_id', '=', counter.id)
      .where('state', 'in', ['called', 'serving'])
      .executeTakeFirst();
    if (holds) {
      throw new AppError(409, 'COUNTER_BUSY', 'This counter holds a visitor: finish first.');
    }
  }
  return trx
    .updateTable('counters')
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(retire
        ? { retired_at: now, state: 'closed' as CounterState, state_changed_at: now }
        : {}),
      updated_at: now,
    })
    .where('id', '=', counter.id)
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? NAME_TAKEN() : err;
    });
}

/**
 * The visitors sent to this counter by name go back to their service's line (decision 139):
 * when it closes or is retired, for good — it opening again later does not take them back.
 */
export async function releaseSentTo(trx: Db, counterId: string): Promise<void> {
  await trx
    .updateTable('visits')
    .set({ for_counter_id: null })
    .where('for_counter_id', '=', counterId)
    .where('state', '=', 'waiting')
    .execute();
}

export function setCounterState(
  trx: Db,
  counterId: string,
  state: CounterState,
  byUser: string,
  now: Date,
): Promise<CounterRow> {
  return trx
    .updateTable('counters')
    .set({
      state,
      state_changed_at: now,
      updated_at: now,
      ...(state === 'open' ? { opened_by: byUser } : {}),
    })
    .where('id', '=', counterId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
