import { type Kysely, sql } from 'kysely';

/**
 * Limits that hold across processes: fixed-window counters keyed by what is limited
 * (route and client address, a global route key, ...), and the client address that placed
 * each hold so concurrent holds can be counted per client. One statement per entry
 * (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `create table rate_counters (
      key text not null check (length(key) between 1 and 200),
      window_start timestamptz not null,
      count integer not null,
      primary key (key, window_start)
    )`,
  `create index rate_counters_window_idx on rate_counters (window_start)`,
  // Null for holds placed before this migration and for holds not made over HTTP.
  `alter table bookings add column client_address text
      check (client_address is null or length(client_address) <= 64)`,
  `create index bookings_live_holds_by_client_idx on bookings (client_address, service_id)
      where status = 'held'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
