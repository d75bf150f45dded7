import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { useSimulatorApp } from '../support/simulator-harness.js';

describe('a booking cancelled at the counter while it is being paid', () => {
  const h = useSimulatorApp();

  it('stays cancelled when the payment then succeeds: the payment is flagged for refund, no ticket', async () => {
    const date = h.nextDate();
    // An admin: staff cancel only today's bookings, this one is of a later day.
    const staff = await signedIn(h.app, h.database.db, {
      email: 'counter@guichet.cm',
      role: 'org_admin',
      organizationId: h.fx.orgId,
    });
    const res = await h.initiate(initiateBody(h.fx, { date }));
    const { payment_id: id, booking_id: bookingId } = res.json().payment;
    const cancel = await h.app.inject({
      method: 'POST',
      url: `/api/v1/organization/bookings/${bookingId}/cancel`,
      headers: staff.headers,
    });
    expect(cancel.json()).toMatchObject({ booking: { status: 'cancelled' } });
    // The seat is free for someone else at once.
    expect(await h.taken(date)).toEqual([]);

    expect((await h.callback(id, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'refund_due' });
    expect(await h.status(id)).toMatchObject({
      status: 'SUCCESSFUL',
      ticket: null,
      failure_code: 'REFUND_DUE',
    });
    const row = await h.database.db
      .selectFrom('bookings as b')
      .innerJoin('payments as p', 'p.booking_id', 'b.id')
      .select(['b.status', 'b.ticket_code', 'p.needs_refund', 'p.refund_reason'])
      .where('b.id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'cancelled',
      ticket_code: null,
      needs_refund: true,
      refund_reason: 'BOOKING_CANCELLED',
    });
  });
});
