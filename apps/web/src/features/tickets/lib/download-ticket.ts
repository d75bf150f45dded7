import type { Ticket } from '@qless/contract';
import type { TicketLabels } from './ticket-pdf';

/** "qless_appointment_ticket.pdf" for the product "Qless". */
export function ticketFileName(productName: string): string {
  const slug = productName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return `${slug || 'ticket'}_appointment_ticket.pdf`;
}

/** Loads jsPDF and the QR encoder only now, as their own chunk (they are ~130 KB gzipped). */
export async function downloadTicket(
  ticket: Ticket,
  labels: TicketLabels,
  productName: string,
): Promise<void> {
  const { renderTicketPdf } = await import('./ticket-pdf');
  const doc = await renderTicketPdf(ticket, labels);
  doc.save(ticketFileName(productName));
}
