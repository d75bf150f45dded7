import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { TAKING_SHOTS } from './browser';

export interface PrintedPage {
  /** The first page's size in PDF points (1 mm = 2.835 pt). */
  widthPt: number;
  heightPt: number;
  pages: number;
  /** Every word printed (pdftotext). */
  text: string;
  /** The QR read from the first page rasterised at a thermal printer's 203 dpi (jsQR). */
  qr: string | null;
}

export const MM = 72 / 25.4;

/**
 * What a page prints, read back as a printer would get it: the browser's own printing to PDF
 * (the page's CSS page size), then poppler's pdfinfo, pdftotext and pdftoppm, and jsQR. In a
 * run that takes screenshots, the printed page is kept as `picture` (PNG at 203 dpi).
 */
export async function readPrinted(page: Page, picture?: string): Promise<PrintedPage> {
  const dir = mkdtempSync(join(tmpdir(), 'qless-print-'));
  try {
    const file = join(dir, 'printed.pdf');
    writeFileSync(file, await page.pdf({ preferCSSPageSize: true, printBackground: true }));
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    execFileSync('pdftoppm', [
      '-r',
      '203',
      '-f',
      '1',
      '-l',
      '1',
      '-png',
      '-singlefile',
      file,
      join(dir, 'page'),
    ]);
    if (picture && TAKING_SHOTS) copyFileSync(join(dir, 'page.png'), picture);
    const { data, info: raster } = await sharp(readFileSync(join(dir, 'page.png')))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const qr = jsQR(new Uint8ClampedArray(data), raster.width, raster.height)?.data ?? null;
    return {
      widthPt: Number(size?.[1] ?? 0),
      heightPt: Number(size?.[2] ?? 0),
      pages,
      text,
      qr,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
