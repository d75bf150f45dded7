import { type Kysely, sql } from 'kysely';

/**
 * The waitlist for full days (decision 023): a phone number waits for a seat of a
 * service on a date; a freed seat is offered by one SMS to the first entry still waiting,
 * for the organization's hold (waitlist_hold_minutes). An entry's states:
 * waiting → offered → booked | lapsed | missed, or waiting/offered → expired (the day
 * passed or can no longer be booked) | withdrawn. An entry leaves `waiting` once and never
 * returns to it, so nobody is offered a seat twice (the outbox's dedupe key
 * `waitlist:<id>:offer` is the second guard: one offer SMS per entry, ever).
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `alter table organizations add column waitlist_hold_minutes integer not null default 15
     constraint organizations_waitlist_hold_ck check (waitlist_hold_minutes between 5 and 120)`,
  `create table waitlist_entries (
     id uuid primary key default gen_random_uuid(),
     -- The order people joined in (joins of one day take turns under its lock).
     seq bigint generated always as identity,
     organization_id uuid not null references organizations(id),
     service_id uuid not null references services(id),
     booking_date date not null,
     phone text not null constraint waitlist_entries_phone_ck check (phone ~ '^\\+2376[0-9]{8}$'),
     locale text not null default 'fr' constraint waitlist_entries_locale_ck check (locale in ('en', 'fr')),
     state text not null default 'waiting' constraint waitlist_entries_state_ck
       check (state in ('waiting', 'offered', 'booked', 'lapsed', 'missed', 'expired', 'withdrawn')),
     client_address text constraint waitlist_entries_client_address_ck check (length(client_address) <= 100),
     withdraw_key_hash text not null constraint waitlist_entries_key_ck check (length(withdraw_key_hash) = 64),
     offered_slot_id uuid references slots(id),
     offered_at timestamptz,
     offer_expires_at timestamptz,
     booking_id uuid references bookings(id),
     ended_at timestamptz,
     created_at timestamptz not null,
     updated_at timestamptz not null,
     constraint waitlist_entries_waiting_ck check (
       state <> 'waiting' or (offered_at is null and ended_at is null)),
     constraint waitlist_entries_was_offered_ck check (
       state not in ('offered', 'booked', 'lapsed', 'missed') or offered_at is not null),
     constraint waitlist_entries_offered_ck check (
       state <> 'offered' or (offered_slot_id is not null and offer_expires_at is not null))
   )`,
  // One live entry per number, service and day: joining again answers the entry there is.
  `create unique index waitlist_entries_active_uq on waitlist_entries (service_id, booking_date, phone)
     where state in ('waiting', 'offered')`,
  // The line of a day, in the order people joined.
  `create index waitlist_entries_line_idx on waitlist_entries (service_id, booking_date, seq)
     where state in ('waiting', 'offered')`,
  `create index waitlist_entries_phone_idx on waitlist_entries (phone) where state in ('waiting', 'offered')`,
  `create index waitlist_entries_address_idx on waitlist_entries (client_address, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
