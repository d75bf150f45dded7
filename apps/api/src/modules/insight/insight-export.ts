/**
 * The CSV export of Insight (issue 20): visits or bookings of a range, RFC 4180 (CRLF line
 * ends, fields quoted when they hold a comma, a quote or a line break, quotes doubled), UTF-8
 * with a BOM (so Excel reads accents), times formatted by PostgreSQL in the branch's time
 * zone, named in the header. Rows are read in pages of PAGE rows by keyset, so a year of a
 * busy branch streams out without being held in memory.
 */
import type { InsightExportKind } from '@qless/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/schema.js';
import { placeName } from '../organizations/organizations.repository.js';

const PAGE = 2000;
const CRLF = '\r\n';
export const BOM = '\uFEFF';

type Cell = string | number | null;

/**
 * One field: text a customer typed may start a formula in a spreadsheet (=, +, -, @, and the
 * tab or carriage return some readers skip first): it gets a leading apostrophe. Numbers are
 * ours and stay numbers.
 */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  // A semicolon or a tab is quoted too: French Excel splits on ";", and a name like
  // "x;=cmd|…" would otherwise start a formula cell of its own.
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: Cell[]) => cells.map(csvCell).join(',') + CRLF;

interface ExportScope {
  organizationIds: string[];
  from: string;
  to: string;
  /** The zone every time is written in (the branch's; the header says it). */
  timeZone: string;
  serviceId?: string | null;
  /** Visits only. */
  counterId?: string | null;
}

const ids = (list: string[]) => sql.join(list.map((id) => sql`${id}::uuid`));
const at = (column: RawBuilder<unknown>, zone: string) =>
  sql`to_char(${column} at time zone ${zone}, 'YYYY-MM-DD HH24:MI:SS')`;

interface VisitLine {
  k_date: string;
  /** As text: a JS Date would drop the microseconds the keyset compares. */
  k_arrived: string;
  k_id: string;
  cells: Cell[];
}

function visitsPage(db: Db, s: ExportScope, after: VisitLine | null) {
  const tz = s.timeZone;
  return sql<VisitLine>`
    select to_char(v.visit_date, 'YYYY-MM-DD') as k_date, v.arrived_at::text as k_arrived,
      v.id::text as k_id,
      json_build_array(
        to_char(v.visit_date, 'YYYY-MM-DD'),
        ${placeName('o')},
        v.letter || '-' || lpad(v.number::text, 3, '0'),
        s.name,
        v.source,
        v.state,
        v.customer_name,
        c.name,
        ${at(sql`v.arrived_at`, tz)},
        ${at(sql`v.queued_at`, tz)},
        ${at(sql`v.called_at`, tz)},
        ${at(sql`v.serving_at`, tz)},
        ${at(sql`v.ended_at`, tz)},
        case when v.called_at is not null
          then round((extract(epoch from (v.called_at - v.queued_at)) / 60.0)::numeric, 1)::float8 end,
        case when v.state = 'done' and v.called_at is not null
          then round((extract(epoch from (v.ended_at - v.called_at)) / 60.0)::numeric, 1)::float8 end,
        v.recalls
      ) as cells
    from visits v
    join organizations o on o.id = v.organization_id
    join services s on s.id = v.service_id
    left join counters c on c.id = v.counter_id
    where v.organization_id in (${ids(s.organizationIds)})
      and v.visit_date between ${s.from}::date and ${s.to}::date
      ${s.serviceId ? sql`and v.service_id = ${s.serviceId}::uuid` : sql``}
      ${s.counterId ? sql`and v.counter_id = ${s.counterId}::uuid` : sql``}
      ${
        after
          ? sql`and (v.visit_date, v.arrived_at, v.id) > (${after.k_date}::date, ${after.k_arrived}::timestamptz, ${after.k_id}::uuid)`
          : sql``
      }
    order by v.visit_date, v.arrived_at, v.id
    limit ${PAGE}`.execute(db);
}

interface BookingLine {
  k_date: string;
  k_id: string;
  cells: Cell[];
}

function bookingsPage(db: Db, s: ExportScope, after: BookingLine | null) {
  const tz = s.timeZone;
  return sql<BookingLine>`
    select to_char(b.booking_date, 'YYYY-MM-DD') as k_date, b.id::text as k_id,
      json_build_array(
        to_char(b.booking_date, 'YYYY-MM-DD'),
        ${placeName('o')},
        to_char(sl.start_time, 'HH24:MI'),
        s.name,
        b.status,
        b.cus_name,
        b.ticket_code,
        ${at(sql`b.confirmed_at`, tz)},
        ${at(sql`b.checked_in_at`, tz)},
        ${at(sql`b.status_changed_at`, tz)},
        b.cancelled_by,
        b.reschedule_count
      ) as cells
    from bookings b
    join organizations o on o.id = b.organization_id
    join services s on s.id = b.service_id
    join slots sl on sl.id = b.slot_id
    where b.organization_id in (${ids(s.organizationIds)})
      and b.booking_date between ${s.from}::date and ${s.to}::date
      ${s.serviceId ? sql`and b.service_id = ${s.serviceId}::uuid` : sql``}
      and b.confirmed_at is not null
      ${after ? sql`and (b.booking_date, b.id) > (${after.k_date}::date, ${after.k_id}::uuid)` : sql``}
    order by b.booking_date, b.id
    limit ${PAGE}`.execute(db);
}

export function exportHeader(kind: InsightExportKind, timeZone: string): string[] {
  const z = (name: string) => `${name} (${timeZone})`;
  return kind === 'visits'
    ? [
        'visit_date',
        'branch',
        'number',
        'service',
        'source',
        'state',
        'customer_name',
        'counter',
        z('arrived_at'),
        z('queued_at'),
        z('called_at'),
        z('serving_at'),
        z('ended_at'),
        'wait_minutes',
        'service_minutes',
        'recalls',
      ]
    : [
        'booking_date',
        'branch',
        z('slot_start'),
        'service',
        'status',
        'customer_name',
        'ticket_code',
        z('confirmed_at'),
        z('checked_in_at'),
        z('status_changed_at'),
        'cancelled_by',
        'reschedule_count',
      ];
}

/** The file, a page of rows at a time (the first chunk is the BOM and the header). */
export async function* exportCsv(
  db: Db,
  kind: InsightExportKind,
  s: ExportScope,
): AsyncGenerator<string> {
  yield BOM + csvLine(exportHeader(kind, s.timeZone));
  if (kind === 'visits') {
    let after: VisitLine | null = null;
    for (;;) {
      const { rows }: { rows: VisitLine[] } = await visitsPage(db, s, after);
      if (rows.length > 0) yield rows.map((r) => csvLine(r.cells)).join('');
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1] ?? null;
    }
  }
  let after: BookingLine | null = null;
  for (;;) {
    const { rows }: { rows: BookingLine[] } = await bookingsPage(db, s, after);
    if (rows.length > 0) yield rows.map((r) => csvLine(r.cells)).join('');
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1] ?? null;
  }
}
