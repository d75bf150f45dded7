import { type Kysely, sql } from 'kysely';

/**
 * Web push, the free channel (decision 142). A subscription belongs to what the customer
 * follows, a booking or a visit (`about`: `booking:{id}` or `visit:{id}`, the first visit of a
 * transfer chain), and ends with it (`expires_at`), or when its push service answers 404/410
 * (`gone_at`). Push messages are outbox rows of channel 'push' whose `to_address` is the
 * subscription's id. `delivered_at` records what came back: the service worker's report that
 * a push was shown, and later a provider's delivery report; `delivery` says 'delivered' or
 * 'failed', null while unknown (a push service's 201 only means accepted).
 */
const statements = [
  `create table push_subscriptions (
     id uuid primary key default gen_random_uuid(),
     about text not null check (about ~ '^(booking|visit):[0-9a-f-]{36}$'),
     endpoint text not null check (length(endpoint) <= 1000),
     p256dh text not null check (length(p256dh) <= 200),
     auth text not null check (length(auth) <= 100),
     locale text not null check (locale in ('en', 'fr')),
     created_at timestamptz not null,
     expires_at timestamptz not null,
     gone_at timestamptz,
     constraint push_subscriptions_about_endpoint_uq unique (about, endpoint)
   )`,
  `create index push_subscriptions_expires_ix on push_subscriptions (expires_at)`,
  `alter table outbox drop constraint outbox_channel_ck`,
  `alter table outbox add constraint outbox_channel_ck check (channel in ('email', 'sms', 'push'))`,
  `alter table outbox add column delivered_at timestamptz`,
  `alter table outbox add column delivery text constraint outbox_delivery_ck check (delivery in ('delivered', 'failed'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
