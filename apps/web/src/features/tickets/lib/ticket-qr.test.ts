import { randomBytes } from 'node:crypto';
import jsQR from 'jsqr';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { TICKET_QR_OPTIONS, ticketQrSegments } from './ticket-qr';

/** The code as a scanner's camera sees it: black modules on white, a few pixels each. */
function pixels(modules: { size: number; get(row: number, col: number): number }, scale = 4) {
  const margin = 4;
  const side = (modules.size + 2 * margin) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < scale; y++) {
        for (let x = 0; x < scale; x++) {
          const at = (((row + margin) * scale + y) * side + (col + margin) * scale + x) * 4;
          data.fill(0, at, at + 3);
        }
      }
    }
  }
  return { data, side };
}

describe('the ticket QR (one mask, one byte segment: decision 115)', () => {
  it('reads back every token, at version 8 and error correction Q', () => {
    for (let i = 0; i < 24; i++) {
      // The compact token's shape: a prefix and random base64url, 104 characters.
      const token = `QL1.${randomBytes(75).toString('base64url')}`;
      const qr = QRCode.create(ticketQrSegments(token), TICKET_QR_OPTIONS);
      expect(qr.version).toBe(8);
      expect(qr.errorCorrectionLevel.bit).toBe(
        QRCode.create('x', { errorCorrectionLevel: 'Q' }).errorCorrectionLevel.bit,
      );
      const { data, side } = pixels(qr.modules);
      expect(jsQR(data, side, side)?.data).toBe(token);
    }
  });
});
