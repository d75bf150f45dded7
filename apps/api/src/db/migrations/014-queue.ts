import { type Kysely, sql } from 'kysely';

/**
 * The same-day queue: visits (a booked ticket checked in, a walk-in added by
 * staff or joining from the poster), the counters that call them, the boards on the wall,
 * and each organization's queue settings. Nothing here is ever deleted: a visit ends in a
 * state, a counter or a board is retired, a service keeps its letter.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  // Queue settings of the organization (decision 020).
  `alter table organizations add column queue_grace_early_minutes integer not null default 30
     constraint organizations_queue_grace_early_ck check (queue_grace_early_minutes between 0 and 240)`,
  `alter table organizations add column queue_grace_late_minutes integer not null default 15
     constraint organizations_queue_grace_late_ck check (queue_grace_late_minutes between 0 and 120)`,
  `alter table organizations add column queue_notify_position integer not null default 3
     constraint organizations_queue_notify_position_ck check (queue_notify_position between 1 and 20)`,
  `alter table organizations add column queue_max_recalls integer not null default 2
     constraint organizations_queue_max_recalls_ck check (queue_max_recalls between 0 and 5)`,
  `alter table organizations add column queue_join_enabled boolean not null default false`,
  // A letter per service for the numbers said aloud; null: assigned on first use.
  `alter table services add column queue_letter text
     constraint services_queue_letter_ck check (queue_letter ~ '^[A-Z]$')`,
  `create unique index services_queue_letter_uq on services (organization_id, queue_letter)
     where queue_letter is not null`,
  `create table counters (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     name text not null constraint counters_name_ck check (length(name) between 1 and 40),
     state text not null default 'closed'
       constraint counters_state_ck check (state in ('closed', 'open', 'paused')),
     opened_by uuid references users(id),
     state_changed_at timestamptz,
     retired_at timestamptz,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now()
   )`,
  `create unique index counters_name_uq on counters (organization_id, lower(name))
     where retired_at is null`,
  `create table counter_services (
     counter_id uuid not null references counters(id),
     service_id uuid not null references services(id),
     primary key (counter_id, service_id)
   )`,
  // The last number given per organization, day and letter: one upsert hands out the next.
  `create table visit_numbers (
     organization_id uuid not null references organizations(id),
     visit_date date not null,
     letter text not null,
     last_number integer not null,
     primary key (organization_id, visit_date, letter)
   )`,
  `create table visits (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     service_id uuid not null references services(id),
     visit_date date not null,
     letter text not null,
     number integer not null constraint visits_number_ck check (number between 1 and 999),
     source text not null constraint visits_source_ck check (source in ('booking', 'staff', 'self')),
     booking_id uuid references bookings(id),
     customer_name text not null default '',
     phone text,
     locale text not null default 'fr' constraint visits_locale_ck check (locale in ('en', 'fr')),
     slot_start timestamptz,
     arrived_at timestamptz not null,
     queued_at timestamptz not null,
     state text not null default 'waiting' constraint visits_state_ck
       check (state in ('waiting', 'called', 'serving', 'done', 'no_show', 'left', 'transferred')),
     counter_id uuid references counters(id),
     called_at timestamptz,
     recalls integer not null default 0,
     serving_at timestamptz,
     ended_at timestamptz,
     transferred_from uuid references visits(id),
     near_notified_at timestamptz,
     called_notified_at timestamptz,
     client_address text,
     created_by uuid references users(id),
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now()
   )`,
  // A number is said once a day per letter; a transfer keeps the customer's number.
  `create unique index visits_number_uq on visits (organization_id, visit_date, letter, number)
     where state <> 'transferred'`,
  // A booking enters the queue once.
  `create unique index visits_booking_uq on visits (booking_id)
     where booking_id is not null and transferred_from is null`,
  // A counter holds at most one person at a time.
  `create unique index visits_counter_busy_uq on visits (counter_id)
     where state in ('called', 'serving')`,
  `create index visits_open_ix on visits (organization_id, visit_date)
     where state in ('waiting', 'called', 'serving')`,
  `create index visits_service_done_ix on visits (service_id, ended_at) where state = 'done'`,
  `create index visits_phone_ix on visits (phone, created_at) where phone is not null`,
  // Every transition with its time (who and where), never updated.
  `create table visit_events (
     id bigint generated always as identity primary key,
     visit_id uuid not null references visits(id),
     organization_id uuid not null references organizations(id),
     kind text not null,
     from_state text,
     to_state text not null,
     counter_id uuid references counters(id),
     by_user uuid references users(id),
     at timestamptz not null
   )`,
  `create index visit_events_visit_ix on visit_events (visit_id, id)`,
  // A board link: the token is shown once; only its hash is kept.
  `create table boards (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     name text not null constraint boards_name_ck check (length(name) between 1 and 60),
     token_hash text not null unique,
     created_by uuid references users(id),
     created_at timestamptz not null default now(),
     revoked_at timestamptz
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
