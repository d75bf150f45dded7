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

/**
 * An SVG path drawing the dark modules of a QR matrix, one unit per module, offset by a
 * quiet zone of `margin` units: one element instead of thousands of rectangles.
 */
export function qrPath(
  matrix: { size: number; get(row: number, col: number): number },
  margin: number,
): string {
  const parts: string[] = [];
  for (let row = 0; row < matrix.size; row += 1) {
    let col = 0;
    while (col < matrix.size) {
      if (!matrix.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < matrix.size && matrix.get(row, col)) col += 1;
      parts.push(`M${start + margin} ${row + margin}h${col - start}v1h${start - col}z`);
    }
  }
  return parts.join('');
}
