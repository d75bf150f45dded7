import { addDays, DEFAULT_TIME_ZONE, wireToMinutes, zonedNow } from '@qless/contract/core';
import { useCallback } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { TurnCard } from '../../features/queue-public/components/turn-card';
import { getSlots } from '../../features/slots/api/get-slots';
import { getTakenSlots } from '../../features/slots/api/get-taken-slots';
import type { LoadAvailability } from '../../features/tickets/components/reschedule-picker';
import { TicketPage } from '../../features/tickets/components/ticket-page';
import { fullKey } from '../../features/tickets/lib/reschedule-days';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

/** The server's default booking horizon, used until its slots answer names the last day. */
const DEFAULT_HORIZON_DAYS = 60;

/**
 * The reschedule picker's data, from the public endpoints of the slots page: the service's
 * slots and its full slots between two dates.
 */
const loadAvailability: LoadAvailability = async (serviceId, from, to, signal) => {
  const [list, full] = await Promise.all([
    getSlots(serviceId, signal),
    getTakenSlots(serviceId, from, to, signal),
  ]);
  const named = (list as { bookable_until?: string }).bookable_until;
  return {
    slots: list.slots
      .filter((slot) => slot.start_time.Valid)
      .map((slot) => ({ id: slot.id, start: wireToMinutes(slot.start_time) }))
      .sort((a, b) => a.start - b.start),
    openDays: list.open_days,
    closures: list.closures,
    full: new Set(full.map((b) => fullKey(b.booking_date, b.slot_id))),
    // Organizations are in Cameroon's zone; the answer's own last day wins when it has one.
    lastDate: named ?? addDays(zonedNow(DEFAULT_TIME_ZONE, new Date()).date, DEFAULT_HORIZON_DAYS),
  };
};

/**
 * `/ticket/{code}?k=…` (a message's `/#/ticket/…` link, turned into its path at boot) or
 * `?t=…` (the QR). Once the key has opened the booking (and the device keeps it), the
 * address is replaced without it so it stays out of the history and any later reload.
 */
export default function TicketRoute() {
  const params = useParams<{ code: string }>();
  const [, navigate] = useLocation();
  const query = new URLSearchParams(useSearch());
  useDocumentTitle('ticketPage.title');
  const rawCode = params.code ?? '';
  let code = rawCode;
  try {
    code = decodeURIComponent(rawCode);
  } catch {
    // Left as typed: the page says it is not a ticket code.
  }
  const linkKey = query.get('k');

  const dropKey = useCallback(
    () => navigate(paths.ticket.build(code), { replace: true }),
    [navigate, code],
  );

  return (
    <TicketPage
      key={code}
      code={code}
      linkKey={linkKey}
      onLinkKeyUsed={dropKey}
      loadAvailability={loadAvailability}
      slotsHref={(serviceId) => href(paths.slots.build(serviceId))}
      openTicket={(next) => navigate(paths.ticket.build(next))}
      turn={(visitId, key) => <TurnCard visitId={visitId} accessKey={key} size="inline" />}
    />
  );
}
