import { normalizeTicketCode, ticketTokenFromScan } from '@qless/contract/core';

export type Scanned = { token: string } | { code: string };

/**
 * What a scan or a typed text stands for: a ticket code if it reads as one; the signed
 * token of a ticket page link (the QR of tickets issued since links: a phone camera opens
 * the page, the desk reads the token in it); a link's ticket code when it carries no
 * token; else the text itself, taken for a bare token (tickets printed before links).
 */
export function scannedText(text: string): Scanned {
  const code = normalizeTicketCode(text);
  if (code) return { code };
  const token = ticketTokenFromScan(text);
  if (token) return { token };
  const linked = /\/ticket\/([^?/#]+)/.exec(text)?.[1];
  let linkedCode: string | null = null;
  try {
    linkedCode = linked ? normalizeTicketCode(decodeURIComponent(linked)) : null;
  } catch {
    linkedCode = null;
  }
  return linkedCode ? { code: linkedCode } : { token: text.trim() };
}
