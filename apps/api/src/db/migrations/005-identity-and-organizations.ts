import { type Kysely, sql } from 'kysely';

/**
 * The organization half of the product: accounts and their sessions, single-use
 * links (invitation, password reset), the mail outbox, uploaded logos, what an organization
 * sets about its week (open days, closures), bilingual services, check-in and the flag on
 * a booking that no longer fits its organization's hours, and onboarding state.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null check (position('@' in email) > 1 and length(email) <= 254 and email = lower(email)),
      name text not null default '' check (length(name) <= 100),
      role text not null check (role in ('operator', 'org_admin', 'staff')),
      organization_id uuid references organizations(id),
      -- Null until the invited person sets a password.
      password_hash text,
      active boolean not null default true,
      password_changed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((role = 'operator') = (organization_id is null))
    )`,
  `create unique index users_email_uq on users (email)`,
  `create index users_organization_idx on users (organization_id)`,
  // The token is never stored: its SHA-256 is the key, so a read of this table signs no one in.
  `create table sessions (
      token_hash text primary key check (length(token_hash) = 64),
      user_id uuid not null references users(id),
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      absolute_expires_at timestamptz not null,
      revoked_at timestamptz,
      user_agent text check (user_agent is null or length(user_agent) <= 300)
    )`,
  `create index sessions_user_idx on sessions (user_id) where revoked_at is null`,
  `create table user_tokens (
      token_hash text primary key check (length(token_hash) = 64),
      user_id uuid not null references users(id),
      purpose text not null check (purpose in ('invite', 'reset')),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`,
  `create index user_tokens_user_idx on user_tokens (user_id, purpose) where used_at is null`,
  `create table mail_outbox (
      id uuid primary key default gen_random_uuid(),
      to_address text not null check (length(to_address) <= 254),
      subject text not null check (length(subject) <= 300),
      text_body text not null,
      html_body text,
      kind text not null check (length(kind) <= 50),
      created_at timestamptz not null,
      sent_at timestamptz,
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_error text
    )`,
  `create index mail_outbox_unsent_idx on mail_outbox (next_attempt_at) where sent_at is null`,
  `create table uploads (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations(id),
      file_name text not null unique check (length(file_name) <= 100),
      content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
      bytes integer not null check (bytes > 0),
      created_by uuid references users(id),
      created_at timestamptz not null
    )`,
  `create index uploads_organization_idx on uploads (organization_id)`,
  // Bit d is day d of the week, 0 = Sunday (as the spec's week); 127 = every day.
  `alter table organizations add column open_days integer not null default 127
      check (open_days between 0 and 127)`,
  `alter table organizations add column verified_at timestamptz`,
  `alter table organizations add column contact_request_id uuid references contact_requests(id)`,
  // Organizations that were public before onboarding existed stay public.
  `update organizations set verified_at = created_at`,
  `create table organization_closures (
      organization_id uuid not null references organizations(id),
      closed_on date not null,
      reason text not null default '' check (length(reason) <= 200),
      primary key (organization_id, closed_on)
    )`,
  `alter table services add column name_fr text check (name_fr is null or length(btrim(name_fr)) between 1 and 200)`,
  `alter table services add column description_fr text check (description_fr is null or length(description_fr) <= 2000)`,
  `alter table bookings add column checked_in_at timestamptz`,
  `alter table bookings add column checked_in_by uuid references users(id)`,
  `alter table bookings add column status_changed_at timestamptz`,
  // Set when the organization's hours, days or a service's duration no longer hold this booking.
  `alter table bookings add column attention_reason text check (attention_reason is null or length(attention_reason) <= 200)`,
  `alter table bookings add constraint bookings_checked_in_at_ck
      check (status <> 'checked_in' or checked_in_at is not null)`,
  `alter table contact_requests add column status text not null default 'new'
      check (status in ('new', 'approved', 'rejected'))`,
  `alter table contact_requests add column handled_at timestamptz`,
  `alter table contact_requests add column handled_by uuid references users(id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
