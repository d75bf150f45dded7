/**
 * The CSV export of Insight: visits or bookings of a range, RFC 4180 (CRLF line
 * ends, fields quoted when they hold a comma, a quote or a line break, quotes doubled), UTF-8
 * with a BOM (so Excel reads accents), times formatted by PostgreSQL in the branch's time
 * zone, named in the header. Rows are read in pages of PAGE rows by keyset, so a year of a
 * busy branch streams out without being held in memory. Two formats (decision 122): the
 * standard CSV, and the French Excel file (";", French words, decimal comma, transfers
 * explained) — see insight-export-words.ts.
 */
import type { InsightExportFormat, InsightExportKind } from '@qless/contract';
import { type RawBuilder, sql } from 'kysely';
import { placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';
import {
  bookingStatusFr,
  type CsvDialect,
  cancelledByFr,
  dialectOf,
  exportHeader,
  transferFr,
  visitSourceFr,
  visitStateFr,
} from './insight-export-words.js';

const PAGE = 2000;
const CRLF = '\r\n';
export const BOM = '\uFEFF';

type Cell = string | number | null;

/**
 * One field: text a customer typed may start a formula in a spreadsheet (=, +, -, @, and the
 * tab or carriage return some readers skip first): it gets a leading apostrophe. Numbers are
 * ours and stay numbers.
 */
export function csvCell(value: Cell, dialect: CsvDialect = STANDARD): string {
  if (value === null) return '';
  // Our numbers: a decimal comma for French Excel, which then reads them as numbers.
  if (typeof value === 'number') {
    return dialect.decimalComma ? String(value).replace('.', ',') : String(value);
  }
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  // A semicolon or a tab is quoted too: French Excel splits on ";", and a name like
  // "x;=cmd|…" would otherwise start a formula cell of its own.
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const STANDARD = dialectOf('csv');

export const csvLine = (cells: Cell[], dialect: CsvDialect = STANDARD) =>
  cells.map((c) => csvCell(c, dialect)).join(dialect.separator) + CRLF;

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

/** A visit row's fields, machine values; `cells` writes them in a format. */
interface VisitFields {
  visit_date: string;
  branch: string;
  number: string;
  service: string;
  service_fr: string | null;
  source: string;
  state: string;
  customer_name: string;
  counter: string | null;
  arrived_at: string | null;
  queued_at: string | null;
  called_at: string | null;
  serving_at: string | null;
  ended_at: string | null;
  wait_minutes: number | null;
  service_minutes: number | null;
  recalls: number;
  /** The service of the row this one was transferred to / from (the same number). */
  to_service: string | null;
  to_service_fr: string | null;
  from_service: string | null;
  from_service_fr: string | null;
}

interface VisitLine {
  k_date: string;
  /** As text: a JS Date would drop the microseconds the keyset compares. */
  k_arrived: string;
  k_id: string;
  f: VisitFields;
}

const frName = (name: string | null, nameFr: string | null) => nameFr?.trim() || name;

function visitCells(f: VisitFields, d: CsvDialect): Cell[] {
  const times = [f.arrived_at, f.queued_at, f.called_at, f.serving_at, f.ended_at];
  const figures = [f.wait_minutes, f.service_minutes, f.recalls];
  if (!d.french) {
    return [
      f.visit_date,
      f.branch,
      f.number,
      f.service,
      f.source,
      f.state,
      f.customer_name,
      f.counter,
      ...times,
      ...figures,
    ];
  }
  return [
    f.visit_date,
    f.branch,
    f.number,
    frName(f.service, f.service_fr),
    visitSourceFr(f.source),
    visitStateFr(f.state),
    transferFr(frName(f.to_service, f.to_service_fr), frName(f.from_service, f.from_service_fr)),
    f.customer_name,
    f.counter,
    ...times,
    ...figures,
  ];
}

function visitsPage(db: Db, s: ExportScope, after: VisitLine | null) {
  const tz = s.timeZone;
  return sql<VisitLine>`
    select to_char(v.visit_date, 'YYYY-MM-DD') as k_date, v.arrived_at::text as k_arrived,
      v.id::text as k_id,
      json_build_object(
        'visit_date', to_char(v.visit_date, 'YYYY-MM-DD'),
        'branch', ${placeName('o')},
        'number', v.letter || '-' || lpad(v.number::text, 3, '0'),
        'service', s.name,
        'service_fr', s.name_fr,
        'source', v.source,
        'state', v.state,
        'customer_name', v.customer_name,
        'counter', c.name,
        'arrived_at', ${at(sql`v.arrived_at`, tz)},
        'queued_at', ${at(sql`v.queued_at`, tz)},
        'called_at', ${at(sql`v.called_at`, tz)},
        'serving_at', ${at(sql`v.serving_at`, tz)},
        'ended_at', ${at(sql`v.ended_at`, tz)},
        'wait_minutes', case when v.called_at is not null
          then round((extract(epoch from (v.called_at - v.queued_at)) / 60.0)::numeric, 1)::float8 end,
        'service_minutes', case when v.state = 'done' and v.called_at is not null
          then round((extract(epoch from (v.ended_at - v.called_at)) / 60.0)::numeric, 1)::float8 end,
        'recalls', v.recalls,
        'to_service', nx.name,
        'to_service_fr', nx.name_fr,
        'from_service', ps.name,
        'from_service_fr', ps.name_fr
      ) as f
    from visits v
    join organizations o on o.id = v.organization_id
    join services s on s.id = v.service_id
    left join counters c on c.id = v.counter_id
    left join visits pv on pv.id = v.transferred_from
    left join services ps on ps.id = pv.service_id
    left join lateral (
      select ns.name, ns.name_fr from visits n join services ns on ns.id = n.service_id
      where n.transferred_from = v.id order by n.queued_at limit 1
    ) nx on true
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

interface BookingFields {
  booking_date: string;
  branch: string;
  slot_start: string;
  service: string;
  service_fr: string | null;
  status: string;
  customer_name: string;
  ticket_code: string | null;
  confirmed_at: string | null;
  checked_in_at: string | null;
  status_changed_at: string | null;
  cancelled_by: string | null;
  reschedule_count: number;
}

interface BookingLine {
  k_date: string;
  k_id: string;
  f: BookingFields;
}

function bookingCells(f: BookingFields, d: CsvDialect): Cell[] {
  return [
    f.booking_date,
    f.branch,
    f.slot_start,
    d.french ? frName(f.service, f.service_fr) : f.service,
    d.french ? bookingStatusFr(f.status) : f.status,
    f.customer_name,
    f.ticket_code,
    f.confirmed_at,
    f.checked_in_at,
    f.status_changed_at,
    d.french ? cancelledByFr(f.cancelled_by) : f.cancelled_by,
    f.reschedule_count,
  ];
}

function bookingsPage(db: Db, s: ExportScope, after: BookingLine | null) {
  const tz = s.timeZone;
  return sql<BookingLine>`
    select to_char(b.booking_date, 'YYYY-MM-DD') as k_date, b.id::text as k_id,
      json_build_object(
        'booking_date', to_char(b.booking_date, 'YYYY-MM-DD'),
        'branch', ${placeName('o')},
        'slot_start', to_char(sl.start_time, 'HH24:MI'),
        'service', s.name,
        'service_fr', s.name_fr,
        'status', b.status,
        'customer_name', b.cus_name,
        'ticket_code', b.ticket_code,
        'confirmed_at', ${at(sql`b.confirmed_at`, tz)},
        'checked_in_at', ${at(sql`b.checked_in_at`, tz)},
        'status_changed_at', ${at(sql`b.status_changed_at`, tz)},
        'cancelled_by', b.cancelled_by,
        'reschedule_count', b.reschedule_count
      ) as f
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

export { exportFilename, exportHeader } from './insight-export-words.js';

/** The file, a page of rows at a time (the first chunk is the BOM and the header). */
export async function* exportCsv(
  db: Db,
  kind: InsightExportKind,
  s: ExportScope,
  format: InsightExportFormat = 'csv',
): AsyncGenerator<string> {
  const d = dialectOf(format);
  yield BOM + csvLine(exportHeader(kind, s.timeZone, d), d);
  if (kind === 'visits') {
    let after: VisitLine | null = null;
    for (;;) {
      const { rows }: { rows: VisitLine[] } = await visitsPage(db, s, after);
      if (rows.length > 0) yield rows.map((r) => csvLine(visitCells(r.f, d), d)).join('');
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1] ?? null;
    }
  }
  let after: BookingLine | null = null;
  for (;;) {
    const { rows }: { rows: BookingLine[] } = await bookingsPage(db, s, after);
    if (rows.length > 0) yield rows.map((r) => csvLine(bookingCells(r.f, d), d)).join('');
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1] ?? null;
  }
}
