import type { QRCodeErrorCorrectionLevel, QRCodeMaskPattern, QRCodeSegment } from 'qrcode';

/**
 * How every ticket QR is drawn (the PDF and the ticket page alike). Error correction Q
 * (a quarter of the code may be lost) so that it still reads from a cracked or dirty
 * screen; the compact token (104 characters) keeps that at version 8, 49 × 49 modules.
 *
 * One mask, named: left to choose, the encoder draws the code under each of the eight masks
 * and scores them, which was most of the ticket page's longest task on a phone (about 70 %
 * of the encoder's 25-50 ms in a fresh page, decision 115). The masks only break up patterns
 * that could confuse a scanner, and the token is random base64url (random-looking under any
 * mask); every scanner reads every mask.
 */
export const TICKET_QR_OPTIONS: {
  errorCorrectionLevel: QRCodeErrorCorrectionLevel;
  maskPattern: QRCodeMaskPattern;
} = { errorCorrectionLevel: 'Q', maskPattern: 0 };

/**
 * The token as one byte segment: the encoder would otherwise look for digit and letter runs
 * to pack tighter, and a random base64url token has none worth it (the same version 8).
 */
export function ticketQrSegments(token: string): QRCodeSegment[] {
  return [{ data: new TextEncoder().encode(token), mode: 'byte' }];
}

export { qrPath } from '../../../lib/qr-path';
