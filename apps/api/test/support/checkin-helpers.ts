import { addDays, type BookingStatus } from '@qless/contract';
import { SignJWT } from 'jose';
import { beforeAll } from 'vitest';
import { generateTicketCode } from '../../src/modules/tickets/ticket-code.js';
import { TicketSigner } from '../../src/modules/tickets/ticket-signer.js';
import { useStack } from './app-fixture.js';
import { signedIn } from './auth-helpers.js';
import { createFixture, type Fixture } from './fixtures.js';
import { NO_LIMITS } from './payment-helpers.js';
import { PINNED_NOW } from './test-app.js';

/** The HS256 key tickets were signed with before Ed25519 (configured as TICKET_SIGNING_KEY). */
export const LEGACY_KEY = 'the-hs256-ticket-key-of-before-ed25519';
export const TODAY = '2026-03-04';
export const TOMORROW = '2026-03-05';
export const YESTERDAY = '2026-03-03';
/** Fixture slot indexes (07:00 + 15 min each): 07:00, 09:00, 09:30, 10:00. */
export const SLOT = { at0700: 0, at0900: 8, at0930: 10, at1000: 12 } as const;

const toSign = (b: BookingRow) => ({
  booking_id: b.id,
  organization_id: b.orgId,
  ticket_code: b.code,
  booking_date: b.date,
  confirmed_at: new Date(PINNED_NOW),
});

export interface BookingRow {
  id: string;
  code: string;
  date: string;
  orgId: string;
  name: string;
}

/**
 * One app with two organizations (A and B), a staff member of each, an admin of A and an
 * operator; bookings are inserted straight into the database as the payments made them.
 */
export function useCounterApp(moreEnv: () => Record<string, string> = () => ({})) {
  const stack = useStack(() => ({
    env: {
      ...NO_LIMITS,
      TICKET_SIGNING_KEY: LEGACY_KEY,
      SESSION_IDLE_MINUTES: '43200',
      ...moreEnv(),
    },
    fixture: false,
  }));
  let signer: TicketSigner;
  const ctx = {
    a: null as unknown as Fixture,
    b: null as unknown as Fixture,
    staffA: { id: '', headers: { authorization: '' } },
    staffB: { id: '', headers: { authorization: '' } },
    adminA: { id: '', headers: { authorization: '' } },
    operator: { id: '', headers: { authorization: '' } },
  };
  let n = 0;

  beforeAll(async () => {
    const { app, database, engine } = stack;
    const db = database.db;
    ctx.a = await createFixture(database, new Date(PINNED_NOW), `-a-${engine}`);
    ctx.b = await createFixture(database, new Date(PINNED_NOW), `-b-${engine}`);
    ctx.staffA = await signedIn(app, db, {
      email: 'staff@a.cm',
      role: 'staff',
      organizationId: ctx.a.orgId,
    });
    ctx.staffB = await signedIn(app, db, {
      email: 'staff@b.cm',
      role: 'staff',
      organizationId: ctx.b.orgId,
    });
    ctx.adminA = await signedIn(app, db, {
      email: 'admin@a.cm',
      role: 'org_admin',
      organizationId: ctx.a.orgId,
    });
    ctx.operator = await signedIn(app, db, { email: 'ops@qless.cm', role: 'operator' });
    // The app stored its Ed25519 key; a signer loaded from the same database shares it.
    signer = await TicketSigner.load(db, LEGACY_KEY);
  });

  return {
    ctx,
    get app() {
      return stack.app;
    },
    get clock() {
      return stack.clock;
    },
    get db() {
      return stack.database.db;
    },
    get database() {
      return stack.database;
    },
    /** A booking of `fx` (default: confirmed, with a ticket); each gets a seat of its own. */
    async book(
      fx: Fixture,
      options: {
        date?: string;
        slot?: number;
        status?: BookingStatus;
        name?: string;
        seat?: number;
        /** When it was paid for; by default noon (Douala) the day before its date. */
        confirmedAt?: string;
      } = {},
    ): Promise<BookingRow> {
      n += 1;
      const status = options.status ?? 'confirmed';
      const date = options.date ?? TODAY;
      const name = options.name ?? `Customer ${n}`;
      const code = generateTicketCode();
      const row = await stack.database.db
        .insertInto('bookings')
        .values({
          organization_id: fx.orgId,
          service_id: fx.serviceId,
          slot_id: fx.slotIds[options.slot ?? SLOT.at0900] ?? '',
          booking_date: date,
          seat: options.seat ?? n,
          status,
          cus_name: name,
          cus_email: `customer${n}@example.cm`,
          phone_number: `+2376770${String(n).padStart(5, '0')}`,
          ticket_code: status === 'held' ? null : code,
          confirmed_at:
            status === 'held'
              ? null
              : new Date(options.confirmedAt ?? `${addDays(date, -1)}T12:00:00+01:00`),
          hold_expires_at: status === 'held' ? new Date(Date.parse(PINNED_NOW) + 600_000) : null,
          checked_in_at: status === 'checked_in' ? new Date(PINNED_NOW) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, code, date, orgId: fx.orgId, name };
    },
    /** The token the booking's ticket carries (what its QR code holds: code + signature). */
    token(b: BookingRow): Promise<string> {
      return signer.sign(toSign(b));
    },
    /** The EdDSA JWT its ticket carried before compact tokens (PDFs hold it in a link). */
    jwtToken(b: BookingRow): Promise<string> {
      return signer.signJwt(toSign(b));
    },
    /** A ticket token as issued before Ed25519 (HS256, no organization claim). */
    legacyToken(b: BookingRow, key = LEGACY_KEY): Promise<string> {
      return new SignJWT({ code: b.code, date: b.date })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(b.id)
        .setIssuer('qless')
        .setIssuedAt(Math.floor(Date.parse(PINNED_NOW) / 1000))
        .sign(new TextEncoder().encode(key));
    },
    checkIn(headers: Record<string, string> | null, body: Record<string, unknown>) {
      return stack.app.inject({
        method: 'POST',
        url: '/api/v1/organization/checkins',
        payload: body,
        ...(headers ? { headers } : {}),
      });
    },
    verify(headers: Record<string, string> | null, token: string) {
      return stack.app.inject({
        method: 'POST',
        url: '/api/v1/tickets/verify',
        payload: { token },
        ...(headers ? { headers } : {}),
      });
    },
  };
}
