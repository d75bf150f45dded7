import { type Kysely, sql } from 'kysely';

/**
 * The initial schema, one statement per entry (PGlite's extended protocol takes one
 * statement at a time). Constraints live here, not only in application code.
 */
const statements = [
  `create table organizations (
      id uuid primary key default gen_random_uuid(),
      slug text unique,
      name text not null check (length(btrim(name)) between 1 and 200),
      category text not null default '',
      city text not null default '',
      location text not null default '' check (length(location) <= 300),
      email text not null unique check (position('@' in email) > 1),
      image_url text,
      time_zone text not null default 'Africa/Douala',
      start_time time not null,
      end_time time not null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (start_time < end_time)
    )`,
  `create table services (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations(id),
      slug text,
      name text not null check (length(btrim(name)) between 1 and 200),
      description text not null default '' check (length(description) <= 2000),
      duration_minutes integer not null check (duration_minutes between 5 and 720),
      capacity integer not null default 1 check (capacity between 1 and 100),
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (organization_id, slug)
    )`,
  `create index services_organization_idx on services (organization_id) where active`,
  `create table slots (
      id uuid primary key default gen_random_uuid(),
      service_id uuid not null references services(id),
      start_time time not null,
      end_time time not null,
      retired_at timestamptz,
      created_at timestamptz not null default now(),
      check (start_time < end_time)
    )`,
  `-- One live slot per start; retired slots stay for the bookings that point at them.
    create unique index slots_live_start_uq on slots (service_id, start_time) where retired_at is null`,
  `create table bookings (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations(id),
      service_id uuid not null references services(id),
      slot_id uuid not null references slots(id),
      booking_date date not null,
      seat integer not null default 1 check (seat >= 1),
      status text not null check (status in ('held', 'confirmed', 'expired', 'cancelled', 'checked_in', 'no_show')),
      hold_expires_at timestamptz,
      cus_name text not null check (length(btrim(cus_name)) between 1 and 100),
      cus_email text not null,
      phone_number text not null check (phone_number ~ '^\\+2376[0-9]{8}$'),
      ticket_code text unique,
      confirmed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (status <> 'held' or hold_expires_at is not null),
      check (status not in ('confirmed', 'checked_in', 'no_show') or ticket_code is not null)
    )`,
  `-- The booking invariant: per slot and date, each seat (1..capacity) is taken at most
    -- once by an active booking. The insert picks a free seat; a race ends in 23505.
    create unique index bookings_active_seat_uq on bookings (slot_id, booking_date, seat)
      where status in ('held', 'confirmed', 'checked_in')`,
  `create index bookings_service_date_idx on bookings (service_id, booking_date)
      where status in ('held', 'confirmed', 'checked_in')`,
  `create index bookings_organization_date_idx on bookings (organization_id, booking_date)`,
  `create index bookings_held_expiry_idx on bookings (hold_expires_at) where status = 'held'`,
  `create table payments (
      id uuid primary key default gen_random_uuid(),
      booking_id uuid not null references bookings(id),
      reference text not null unique check (length(reference) between 8 and 100),
      request_fingerprint text not null,
      provider text not null,
      provider_reference text,
      amount integer not null check (amount > 0),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      phone_number text not null,
      status text not null check (status in ('PENDING', 'SUCCESSFUL', 'FAILED')),
      failure_code text,
      needs_refund boolean not null default false,
      refund_reason text,
      ussd_code text,
      operator text,
      operator_reference text,
      settled_at timestamptz,
      last_checked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (provider, provider_reference),
      check ((status = 'PENDING') = (settled_at is null)),
      -- Money received that no booking answers for is always recorded for refund.
      check (not needs_refund or refund_reason is not null)
    )`,
  `create index payments_booking_idx on payments (booking_id)`,
  `create index payments_pending_idx on payments (created_at) where status = 'PENDING'`,
  `create table payment_events (
      id uuid primary key default gen_random_uuid(),
      payment_id uuid references payments(id),
      provider text not null,
      source text not null,
      signature_valid boolean not null,
      outcome text not null,
      payload jsonb not null,
      received_at timestamptz not null default now()
    )`,
  `create index payment_events_payment_idx on payment_events (payment_id)`,
  `create table contact_requests (
      id uuid primary key default gen_random_uuid(),
      user_name text not null check (length(btrim(user_name)) between 1 and 200),
      user_email text not null,
      message text not null default '' check (length(message) <= 5000),
      created_at timestamptz not null default now()
    )`,
  `create table app_secrets (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
