import { normalizeTicketCode } from '@qless/contract/core';
import { ticketLookupQuery } from '../../features/tickets/api/lookup-ticket';
import { firstData } from '../first-data';
import { paths } from '../paths';

/**
 * The ticket's public look-up (place, service, date, time, state: nothing personal), so the
 * page paints its final layout from the HTML (decision 112). A key opens the rest in the
 * browser. An unknown code still answers 200: the page offers the code + digits form.
 */
export default firstData(paths.ticket.pattern, async ({ params, ask }) => {
  let raw = params.code;
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // As the page reads it: left as typed.
  }
  const code = normalizeTicketCode(raw);
  if (code) await ask(ticketLookupQuery(code));
  return 'found';
});
