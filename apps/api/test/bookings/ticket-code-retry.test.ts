// engines: postgres and pglite — a unique violation retried inside one transaction
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BookingsService } from '../../src/modules/bookings/bookings.service.js';
import { useStack } from '../support/app-fixture.js';

/** Codes the generator hands out next, before it goes back to random ones. */
const forced = vi.hoisted(() => ({ codes: [] as string[] }));

vi.mock('../../src/modules/tickets/ticket-code.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/modules/tickets/ticket-code.js')>();
  return {
    ...actual,
    generateTicketCode: () => forced.codes.shift() ?? actual.generateTicketCode(),
  };
});

const TAKEN = 'QL-7K4M-2Q';
const FREE = 'QL-9ZZZ-3R';
const OTHER_TAKEN = 'QL-5H5H-5H';

describe('ticket codes on confirmation', () => {
  const s = useStack();
  let bookings: BookingsService;
  let slotIndex = 12;

  beforeAll(() => {
    bookings = s.app.payments.bookings;
  });

  afterEach(() => {
    forced.codes = [];
  });

  /** Holds the next slot of 5 March and confirms it; the booking's id. */
  async function confirmNewHold(): Promise<string> {
    const now = new Date('2026-03-04T08:30:00Z');
    const slotId = s.fx.slotIds[slotIndex++] ?? '';
    const bookable = await bookings.findBookable(
      { serviceId: s.fx.serviceId, slotId, date: '2026-03-05' },
      now,
    );
    return s.database.db.transaction().execute(async (trx) => {
      const customer = {
        cus_name: 'Ngono Marie',
        cus_email: 'ngono.marie@example.com',
        phone_number: '+237677123456',
      };
      const { bookingId } = await bookings.placeHold(trx, bookable, customer, now);
      await bookings.confirm(trx, bookingId, now);
      return bookingId;
    });
  }

  const codeOf = async (id: string) =>
    (
      await s.database.db
        .selectFrom('bookings')
        .select('ticket_code')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).ticket_code;

  it('draws again while the code is taken', async () => {
    forced.codes = [TAKEN];
    expect(await codeOf(await confirmNewHold())).toBe(TAKEN);
    forced.codes = [TAKEN, TAKEN, FREE];
    expect(await codeOf(await confirmNewHold())).toBe(FREE);
    expect(forced.codes).toEqual([]);
  });

  it('draws at most five more times, then leaves the last word to the unique index', async () => {
    forced.codes = [OTHER_TAKEN];
    expect(await codeOf(await confirmNewHold())).toBe(OTHER_TAKEN);
    forced.codes = Array.from({ length: 6 }, () => OTHER_TAKEN);
    forced.codes.push('QL-2222-22');
    await expect(confirmNewHold()).rejects.toMatchObject({ code: '23505' });
    expect(forced.codes).toEqual(['QL-2222-22']);
  });
});
