import {
  adminBookingsResponseSchema,
  localizedText,
  organizationDataResponseSchema,
  ticketLookupResponseSchema,
  ticketVerifyResponseSchema,
} from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { TODAY, useCounterApp } from '../support/checkin-helpers.js';

/**
 * Issue 18, point 4: every answer that names a service gives its French name beside the
 * base one (null when the organization wrote none), so each screen, the PDF and the public
 * look-up can apply the one rule (`localizedText`) instead of showing English in French.
 */
describe('service names in both languages', () => {
  const h = useCounterApp();
  let code = '';
  let untranslatedCode = '';

  beforeAll(async () => {
    await h.db
      .updateTable('services')
      .set({ name_fr: 'Guichet de 15 minutes' })
      .where('id', '=', h.ctx.a.serviceId)
      .execute();
    code = (await h.book(h.ctx.a, { date: TODAY, name: 'Ngono Marie' })).code;
    untranslatedCode = (await h.book(h.ctx.b, { date: TODAY })).code;
  });

  it('the public look-up by code answers the French name too, null when none was written', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/api/v1/tickets/${code}` });
    expect(res.statusCode).toBe(200);
    const { ticket } = ticketLookupResponseSchema.parse(res.json());
    expect(ticket).toMatchObject({ service: 'Counter 15', service_fr: 'Guichet de 15 minutes' });
    expect(localizedText(ticket.service, ticket.service_fr, 'fr')).toBe('Guichet de 15 minutes');

    const other = await h.app.inject({ method: 'GET', url: `/api/v1/tickets/${untranslatedCode}` });
    const plain = ticketLookupResponseSchema.parse(other.json()).ticket;
    expect(plain).toMatchObject({ service: 'Counter 15', service_fr: null });
    expect(localizedText(plain.service, plain.service_fr, 'fr')).toBe('Counter 15');
  });

  it('the ticket (what the PDF and the ticket step draw) carries the French name', async () => {
    const booking = await h.db
      .selectFrom('bookings')
      .select(['id', 'organization_id', 'ticket_code', 'booking_date'])
      .where('ticket_code', '=', code)
      .executeTakeFirstOrThrow();
    const token = await h.token({
      id: booking.id,
      code,
      date: booking.booking_date,
      orgId: booking.organization_id,
      name: 'Ngono Marie',
    });
    const res = await h.verify(h.ctx.staffA.headers, token);
    expect(res.statusCode).toBe(200);
    const answer = ticketVerifyResponseSchema.parse(res.json());
    expect(answer.ticket).toMatchObject({
      service: 'Counter 15',
      service_fr: 'Guichet de 15 minutes',
    });
  });

  it("the admin's Dashboard and Bookings get the French name of each booking's service", async () => {
    const data = await h.app.inject({
      method: 'GET',
      url: '/api/v1/organization/data',
      headers: h.ctx.adminA.headers,
    });
    expect(data.statusCode).toBe(200);
    const { stats } = organizationDataResponseSchema.parse(data.json());
    expect(stats.today).toEqual([
      expect.objectContaining({
        cus_name: 'Ngono Marie',
        service_name: 'Counter 15',
        service_name_fr: 'Guichet de 15 minutes',
      }),
    ]);

    const list = await h.app.inject({
      method: 'GET',
      url: `/api/v1/organization/${h.ctx.a.orgId}/bookings`,
      headers: h.ctx.adminA.headers,
    });
    expect(list.statusCode).toBe(200);
    const { bookings } = adminBookingsResponseSchema.parse(list.json());
    expect(bookings.map((b) => b.service_name_fr)).toEqual(['Guichet de 15 minutes']);
  });
});
