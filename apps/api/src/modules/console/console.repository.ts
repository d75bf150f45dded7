import { formatMinutes, type PlatformOrganization } from '@qless/contract';
import { sql } from 'kysely';
import { isListed, maskToOpenDays, missingFields } from '../../core/organizations.repository.js';
import type { Db, OrganizationRow, OutboxChannel } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

type PlatformService = PlatformOrganization['services'][number];

/** The console says what the public catalogue does: the same `isListed` rule. */
export function toPlatformOrganization(
  org: OrganizationRow,
  services: PlatformService[],
): PlatformOrganization {
  return {
    organization_id: org.id,
    name: org.name,
    branch_name: org.branch_name,
    parent_id: org.parent_id,
    email: org.email,
    city: org.city,
    category: org.category,
    location: org.location,
    active: org.active,
    verified: org.verified_at !== null,
    verified_at: iso(org.verified_at),
    missing_fields: missingFields(org),
    listed: isListed(org),
    created_at: new Date(org.created_at).toISOString(),
    image_url: org.image_url,
    time_zone: org.time_zone,
    opens_at: formatMinutes(timeToMinutes(org.start_time)),
    closes_at: formatMinutes(timeToMinutes(org.end_time)),
    open_days: maskToOpenDays(org.open_days),
    services,
  };
}

/** Every service of these organizations (active or not), by organization, in name order. */
async function servicesOf(
  db: Db,
  organizationIds: string[],
): Promise<Map<string, PlatformService[]>> {
  const byOrganization = new Map<string, PlatformService[]>();
  if (organizationIds.length === 0) return byOrganization;
  const rows = await db
    .selectFrom('services')
    .select([
      'id',
      'organization_id',
      'name',
      'name_fr',
      'description',
      'duration_minutes',
      'active',
    ])
    .where('organization_id', 'in', organizationIds)
    .orderBy('name')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byOrganization.get(row.organization_id) ?? [];
    list.push({
      service_id: row.id,
      service_name: row.name,
      service_name_fr: row.name_fr,
      service_description: row.description,
      duration: row.duration_minutes,
      active: row.active,
    });
    byOrganization.set(row.organization_id, list);
  }
  return byOrganization;
}

const contactColumns = [
  'c.id',
  'c.user_name',
  'c.user_email',
  'c.message',
  'c.contact_name',
  'c.phone',
  'c.status',
  'c.created_at',
  'c.handled_at',
] as const;

/** Contact requests with the organization made from each (approved ones). */
function contactQuery(db: Db) {
  return db
    .selectFrom('contact_requests as c')
    .leftJoin('organizations as o', 'o.contact_request_id', 'c.id')
    .select([...contactColumns, 'o.id as organization_id']);
}

type ContactRow = Awaited<ReturnType<ReturnType<typeof contactQuery>['executeTakeFirstOrThrow']>>;

export function toContactItem(row: ContactRow) {
  return {
    id: row.id,
    user_name: row.user_name,
    user_email: row.user_email,
    message: row.message,
    contact_name: row.contact_name,
    phone: row.phone,
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
    handled_at: iso(row.handled_at),
    organization_id: row.organization_id ?? null,
  };
}

export async function listContactRequests(
  db: Db,
  filter: { status?: 'new' | 'approved' | 'rejected' | undefined; page: number; pageSize: number },
) {
  let count = db.selectFrom('contact_requests').select(sql<string>`count(*)`.as('n'));
  let rows = contactQuery(db)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  if (filter.status) {
    count = count.where('status', '=', filter.status);
    rows = rows.where('c.status', '=', filter.status);
  }
  const [total, items] = await Promise.all([count.executeTakeFirstOrThrow(), rows.execute()]);
  return { total: Number(total.n), items: items.map(toContactItem) };
}

export async function findContactRequest(db: Db, id: string) {
  const row = await contactQuery(db).where('c.id', '=', id).executeTakeFirst();
  return row ? toContactItem(row) : null;
}

/**
 * Moves a new request to `status`, once: of two operators handling one request at the same
 * moment, one gets the row (the other's UPDATE waits on the row lock, then matches nothing).
 */
export async function handleContactRequest(
  db: Db,
  id: string,
  status: 'approved' | 'rejected',
  operatorId: string,
  now: Date,
) {
  return db
    .updateTable('contact_requests')
    .set({ status, handled_at: now, handled_by: operatorId })
    .where('id', '=', id)
    .where('status', '=', 'new')
    .returningAll()
    .executeTakeFirst();
}

export async function listOrganizations(db: Db): Promise<PlatformOrganization[]> {
  const rows = await db
    .selectFrom('organizations')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('name')
    .execute();
  const services = await servicesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toPlatformOrganization(row, services.get(row.id) ?? []));
}

export async function setVerified(
  db: Db,
  id: string,
  verifiedAt: Date | null,
  now: Date,
): Promise<PlatformOrganization | null> {
  const row = await db
    .updateTable('organizations')
    // Verifying again keeps the first verification's time.
    .set((eb) => ({
      verified_at: verifiedAt ? eb.fn.coalesce('verified_at', eb.val(verifiedAt)) : null,
      updated_at: now,
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!row) return null;
  const services = await servicesOf(db, [row.id]);
  return toPlatformOrganization(row, services.get(row.id) ?? []);
}

/** The token of a sign-in link (invitation or password reset) in a mail's text. */
const LINK_TOKEN = /(\/#\/(?:invite|reset-password)\/)[A-Za-z0-9_-]+/g;

/**
 * Operators read the outbox to pass links on when there is no SMTP server. A mail that was
 * sent, or that a server will send, is the recipient's alone: its link tokens are hidden.
 */
export function shownBody(
  mail: { text_body: string; sent_at: Date | null },
  smtpConfigured: boolean,
): string {
  if (!smtpConfigured && mail.sent_at === null) return mail.text_body;
  return mail.text_body.replace(LINK_TOKEN, '$1…');
}

/**
 * A customer's number or address as operators see it: enough to tell two apart and to
 * confirm one a customer reads out, not enough to contact them or to stand in for them
 * (their ticket code and the last four digits of their number open their booking).
 */
export function maskRecipient(channel: OutboxChannel, to: string): string {
  // A push goes to a subscription (a phone's browser), named by our own id: nothing to show.
  if (channel === 'push') return 'a subscribed phone';
  if (channel === 'sms' || channel === 'whatsapp') {
    const cameroon = /^\+237(\d)\d{6}(\d{2})$/.exec(to);
    if (cameroon) return `+237 ${cameroon[1]}•• ••• •${cameroon[2]}`;
    const digits = to.replace(/\D/g, '');
    return digits.length < 6 ? '•••' : `+${digits.slice(0, 2)}•••${digits.slice(-2)}`;
  }
  const at = to.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${to.slice(0, 1)}•••${to.slice(at)}`;
}

/**
 * Messages to staff accounts, which operators may read (and pass on without SMTP). Every
 * other kind is a customer's — a booking's, and those of no booking: the queue's turn SMS,
 * the feedback link after a visit — masked and without its text.
 */
const ACCOUNT_KINDS = new Set(['invitation', 'password_reset']);

export async function listOutbox(db: Db, page: number, pageSize: number, smtpConfigured: boolean) {
  const [total, rows] = await Promise.all([
    db.selectFrom('outbox').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('outbox')
      .select([
        'id',
        'channel',
        'status',
        'to_address',
        'subject',
        'kind',
        'booking_id',
        'locale',
        'provider',
        'created_at',
        'sent_at',
        'attempts',
        'next_attempt_at',
        'last_error',
        'text_body',
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ]);
  return {
    total: Number(total.n),
    messages: rows.map((m) => {
      const customer = m.booking_id !== null || !ACCOUNT_KINDS.has(m.kind);
      return {
        id: m.id,
        channel: m.channel,
        status: m.status,
        to: customer ? maskRecipient(m.channel, m.to_address) : m.to_address,
        subject: customer ? null : m.subject,
        kind: m.kind,
        customer,
        locale: m.locale,
        provider: m.provider,
        created_at: m.created_at.toISOString(),
        sent_at: iso(m.sent_at),
        attempts: m.attempts,
        next_attempt_at: iso(m.next_attempt_at),
        last_error: m.last_error,
        text_body:
          customer || m.text_body === null
            ? null
            : shownBody({ text_body: m.text_body, sent_at: m.sent_at }, smtpConfigured),
      };
    }),
  };
}

export async function listPaymentsToReview(db: Db, page: number, pageSize: number) {
  const [total, rows] = await Promise.all([
    db
      .selectFrom('payments')
      .select(sql<string>`count(*)`.as('n'))
      .where('needs_review', '=', true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('payments')
      .select([
        'id',
        'reference',
        'provider',
        'status',
        'review_reason',
        'amount',
        'currency',
        'created_at',
      ])
      .where('needs_review', '=', true)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ]);
  return {
    total: Number(total.n),
    payments: rows.map((p) => ({
      ...p,
      amount: Number(p.amount),
      created_at: new Date(p.created_at).toISOString(),
    })),
  };
}
