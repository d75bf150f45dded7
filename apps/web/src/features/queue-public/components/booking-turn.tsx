import { useEffect, useState } from 'react';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { TurnCard } from './turn-card';

/**
 * A checked-in booking's turn (the ticket page, My bookings): the ticket's public look-up
 * names its visit today, then the booking's own key reads the turn.
 */
export function BookingTurn({ code, accessKey }: { code: string; accessKey: string }) {
  const [visitId, setVisitId] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    apiFetch<{ ticket: { visit_id?: string | null } }>(apiPaths.ticketLookup(code), {
      signal: controller.signal,
    }).then(
      (body) => {
        if (!controller.signal.aborted) setVisitId(body.ticket.visit_id ?? null);
      },
      () => {
        // No turn shown: the ticket itself is on the page.
      },
    );
    return () => controller.abort();
  }, [code]);
  return visitId ? <TurnCard visitId={visitId} accessKey={accessKey} size="inline" /> : null;
}
