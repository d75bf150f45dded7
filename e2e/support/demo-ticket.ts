import { ticketPageUrl } from '@qless/contract/core';

export interface PaidTicket {
  code: string;
  /** The booking's access key. */
  key: string;
  /** The ticket page's link as messages carry it (path, no origin), key included. */
  link: string;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * A booking paid through the simulator (as a customer would: initiate, then the simulator
 * settles it), for the ticket pages: its code, its key and the link its messages carry. The
 * server must run the simulator (the e2e and Lighthouse servers do).
 */
export async function paidTicket(origin: string, serviceId: string): Promise<PaidTicket> {
  const api = `${origin}/api/v1`;
  const slots = (await (
    await fetch(`${api}/service/${encodeURIComponent(serviceId)}/slots`)
  ).json()) as {
    slots: { id: string; start_time: { Valid: boolean } }[];
    today: string;
  };
  const slot = slots.slots.find((s) => s.start_time.Valid);
  if (!slot) throw new Error('The demo service has no slot');
  // The first open day from tomorrow that takes the booking (closed days answer 4xx).
  for (let ahead = 1; ahead <= 14; ahead++) {
    const day = new Date(`${slots.today}T12:00:00Z`);
    day.setUTCDate(day.getUTCDate() + ahead);
    const res = await fetch(`${api}/payment/initiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        cus_name: 'Ngono Marie',
        cus_email: 'ngono.marie@example.com',
        phone_number: '+237677123456',
        amount: '2',
        currency: 'XAF',
        reference: `lighthouse-${Date.now()}-${ahead}`,
        service_id: serviceId,
        slot_id: slot.id,
        date: day.toISOString().slice(0, 10),
      }),
    });
    if (!res.ok) continue;
    const { payment } = (await res.json()) as {
      payment: { payment_id: string; access_key: string };
    };
    for (let i = 0; i < 60; i++) {
      const status = (await (
        await fetch(`${api}/payment/${encodeURIComponent(payment.payment_id)}`)
      ).json()) as { status: string; ticket: { code: string } | null };
      if (status.status === 'SUCCESSFUL' && status.ticket) {
        const code = status.ticket.code;
        return {
          code,
          key: payment.access_key,
          link: ticketPageUrl('', code, { k: payment.access_key }),
        };
      }
      if (status.status === 'FAILED') break;
      await sleep(250);
    }
  }
  throw new Error('No demo booking could be paid through the simulator');
}

/** The demo's Bamenda Regional Hospital and its Antenatal clinic (the ticket files' service). */
export async function antenatalClinic(
  origin: string,
): Promise<{ organizationId: string; serviceId: string }> {
  const api = async <T>(path: string) =>
    (await (await fetch(`${origin}/api/v1${path}`)).json()) as T;
  const { organizations } = await api<{
    organizations: { organization_id: string; name: string }[];
  }>('/organizations');
  const org = organizations.find((o) => o.name === 'Bamenda Regional Hospital');
  if (!org) throw new Error('The demo data has no Bamenda Regional Hospital');
  const { services } = await api<{ services: { service_id: string; service_name: string }[] }>(
    `/organizations/${org.organization_id}/services`,
  );
  const service = services.find((s) => s.service_name === 'Antenatal clinic');
  if (!service) throw new Error('The demo data has no Antenatal clinic');
  return { organizationId: org.organization_id, serviceId: service.service_id };
}
