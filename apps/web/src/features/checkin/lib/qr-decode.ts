/**
 * Reads a QR code from a camera frame or a photo: the browser's BarcodeDetector where it
 * has one, otherwise jsQR, fetched only by this screen (and fetched as soon as the screen
 * opens, so that it is there when the network is not).
 */
type Source = HTMLVideoElement | ImageBitmap;

interface Detector {
  detect(source: Source): Promise<{ rawValue: string }[]>;
}
interface DetectorClass {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats?: () => Promise<string[]>;
}

type JsQr = typeof import('jsqr').default;
let jsQrLoad: Promise<JsQr> | null = null;

function loadJsQr(): Promise<JsQr> {
  jsQrLoad ??= import('jsqr').then((m) => m.default);
  return jsQrLoad;
}

let detector: Promise<Detector | null> | null = null;

async function nativeDetector(): Promise<Detector | null> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    const formats = (await Native.getSupportedFormats?.()) ?? ['qr_code'];
    return formats.includes('qr_code') ? new Native({ formats: ['qr_code'] }) : null;
  } catch {
    return null;
  }
}

/** Picks the decoder once; starts loading jsQR at once when it is the one. */
export function prepareDecoder(): Promise<Detector | null> {
  detector ??= nativeDetector().then((found) => {
    if (!found) void loadJsQr().catch(() => undefined);
    return found;
  });
  return detector;
}

function pixelsOf(source: Source, canvas: HTMLCanvasElement): ImageData | null {
  const width = source instanceof HTMLVideoElement ? source.videoWidth : source.width;
  const height = source instanceof HTMLVideoElement ? source.videoHeight : source.height;
  if (!width || !height) return null;
  // Large photos are scaled down: jsQR's time grows with the pixels, not its success.
  const scale = Math.min(1, 1280 / Math.max(width, height));
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return context.getImageData(0, 0, canvas.width, canvas.height);
}

/** The text of the first QR code in `source`, or null. */
export async function decodeQr(source: Source, canvas: HTMLCanvasElement): Promise<string | null> {
  const native = await prepareDecoder();
  if (native) {
    const found = await native.detect(source);
    return found[0]?.rawValue ?? null;
  }
  const jsQr = await loadJsQr();
  const pixels = pixelsOf(source, canvas);
  if (!pixels) return null;
  return jsQr(pixels.data, pixels.width, pixels.height)?.data ?? null;
}

/** The QR code in a photo (the "scan an image" button). */
export async function decodeQrFile(file: Blob): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  try {
    return await decodeQr(bitmap, document.createElement('canvas'));
  } finally {
    bitmap.close();
  }
}
