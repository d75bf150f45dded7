import type { Kysely } from 'kysely';
import type { DB } from '../../apps/api/src/db/schema';
import { generateTicketCode } from '../../apps/api/src/modules/tickets/ticket-code';

const DEMO_OPERATOR = { email: 'operator@qless.demo', password: 'qless-demo-2026' };

export interface DemoQueuePages {
  /** The organization's join page (the QR poster's target), joining switched on. */
  join: string;
  /** A board link of the organization (path, token included). */
  board: string;
}

/**
 * The queue's public pages of a demo organization, for the Lighthouse run: the demo operator
 * switches its join page on and makes a board link (the two public pages of issue 19).
 */
export async function demoQueuePages(
  origin: string,
  organizationId: string,
): Promise<DemoQueuePages> {
  const api = `${origin}/api/v1`;
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_OPERATOR),
  });
  if (!login.ok) throw new Error(`The demo operator could not sign in: ${login.status}`);
  const { token } = (await login.json()) as { token: string };
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const scope = `organization_id=${encodeURIComponent(organizationId)}`;
  const current = await fetch(`${api}/queue/settings?${scope}`, { headers });
  if (!current.ok) throw new Error(`Queue settings answered ${current.status}`);
  const { settings } = (await current.json()) as { settings: Record<string, unknown> };
  const saved = await fetch(`${api}/queue/settings?${scope}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ ...settings, join_enabled: true }),
  });
  if (!saved.ok) throw new Error(`Switching the join page on answered ${saved.status}`);
  const board = await fetch(`${api}/queue/boards?${scope}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Lighthouse' }),
  });
  if (board.status !== 201) throw new Error(`Creating a board link answered ${board.status}`);
  const created = (await board.json()) as { token: string };
  return {
    join: `/join/${encodeURIComponent(organizationId)}`,
    board: `/board/${encodeURIComponent(created.token)}`,
  };
}

/**
 * The first demo organization (by name) whose queue is open at the server's "now", with an
 * active service: its id and name, the service's id, and the service's name as a French
 * screen shows it. The server answers whether it is open (its clock, its hours).
 */
export async function openDemoService(
  origin: string,
  db: Kysely<DB>,
): Promise<{
  org: { id: string; name: string };
  service: { id: string; name: string; nameFr: string };
}> {
  const rows = await db
    .selectFrom('organizations as o')
    .innerJoin('services as s', 's.organization_id', 'o.id')
    .select(['o.id', 'o.name', 's.id as service_id', 's.name as service_name', 's.name_fr'])
    .where('s.active', '=', true)
    .orderBy('o.name')
    .execute();
  for (const row of rows) {
    const info = (await (await fetch(`${origin}/api/v1/join/${row.id}`)).json()) as {
      open?: boolean;
    };
    if (info.open) {
      return {
        org: { id: row.id, name: row.name },
        service: {
          id: row.service_id,
          name: row.service_name,
          nameFr: row.name_fr ?? row.service_name,
        },
      };
    }
  }
  throw new Error("No demo organization is open at the server's now");
}

/**
 * A confirmed booking of `date` at the service's first slot, as a payment makes it (inserted
 * straight into the server's database): its id and ticket code.
 */
export async function confirmedBooking(
  db: Kysely<DB>,
  b: {
    organizationId: string;
    serviceId: string;
    date: string;
    seat: number;
    name: string;
    email: string;
    phone: string;
  },
): Promise<{ id: string; code: string }> {
  const slot = await db
    .selectFrom('slots')
    .select('id')
    .where('service_id', '=', b.serviceId)
    .where('retired_at', 'is', null)
    .executeTakeFirstOrThrow();
  const code = generateTicketCode();
  const booking = await db
    .insertInto('bookings')
    .values({
      organization_id: b.organizationId,
      service_id: b.serviceId,
      slot_id: slot.id,
      booking_date: b.date,
      seat: b.seat,
      status: 'confirmed',
      cus_name: b.name,
      cus_email: b.email,
      phone_number: b.phone,
      ticket_code: code,
      confirmed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: booking.id, code };
}
