import type { Ticket } from '@qless/contract';
import { jsPDF } from 'jspdf';
import QRCode from 'qrcode';
import { TICKET_QR_OPTIONS, ticketQrSegments } from './ticket-qr';

/** Every text of the ticket, already in the UI language; row labels carry their colon. */
export interface TicketLabels {
  title: string;
  organization: string;
  location: string;
  service: string;
  date: string;
  time: string;
  username: string;
  email: string;
  phone: string;
  code: string;
  arrive: string;
  /** The service's name in the UI language. */
  serviceName: string;
  /** The appointment date already localized, e.g. "Monday 16 March 2026". */
  formattedDate: string;
  /** The time with its zone as people read it, e.g. "09:30, heure de Douala (UTC+1)". */
  formattedTime: string;
}

/** Builds the ticket (spec 9: landscape, mm, 210 × 115) with a QR code of `qrText`. */
export async function renderTicketPdf(
  ticket: Ticket,
  labels: TicketLabels,
  qrText: string,
): Promise<jsPDF> {
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: [210, 115] });
  const brand: [number, number, number] = [11, 94, 215];

  doc.setFillColor(...brand);
  doc.rect(0, 0, 210, 22, 'F');
  doc.setTextColor(255, 255, 255);
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(17);
  doc.text(labels.title, 12, 14);

  doc.setTextColor(20, 27, 45);
  const rows: [string, string][] = [
    [labels.organization, ticket.organization],
    [labels.location, ticket.location],
    [labels.service, labels.serviceName],
    [labels.date, labels.formattedDate],
    [labels.time, labels.formattedTime],
    [labels.username, ticket.customer_name],
    // No e-mail given (decision 121): a dash, in WinAnsi as jsPDF's fonts need.
    [labels.email, ticket.email || '\u2014'],
    [labels.phone, ticket.phone],
  ];
  let y = 33;
  doc.setFontSize(11);
  for (const [label, value] of rows) {
    doc.setFont('helvetica', 'bold');
    doc.text(label, 12, y);
    doc.setFont('helvetica', 'normal');
    doc.text(doc.splitTextToSize(value, 100)[0] ?? '', 50, y);
    y += 8;
  }

  const qr = await QRCode.toDataURL(ticketQrSegments(qrText), {
    ...TICKET_QR_OPTIONS,
    margin: 1,
    width: 360,
  });
  doc.addImage(qr, 'PNG', 158, 30, 44, 44);
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(12);
  doc.text(ticket.code, 180, 81, { align: 'center' });
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(8);
  doc.text(labels.code, 180, 86, { align: 'center' });

  doc.setDrawColor(220, 226, 236);
  doc.line(12, 101, 198, 101);
  doc.setFontSize(10);
  doc.setTextColor(70, 80, 100);
  doc.text(labels.arrive, 12, 108);
  return doc;
}
