import { randomBytes } from 'node:crypto';
import type Sharp from 'sharp';
import { AppError } from '../../errors.js';
import type { ImageType } from './uploads.repository.js';

/** Largest file accepted, before re-encoding. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
/**
 * Largest picture decoded: a small compressed file can claim a huge picture (a
 * decompression bomb) and sharp would allocate width × height × channels for it.
 */
export const MAX_INPUT_PIXELS = 25_000_000;
/** A logo is shown small: longer sides are scaled down to this. */
const MAX_SIDE = 1024;

let loaded: Promise<typeof Sharp> | null = null;

/**
 * sharp, loaded at the first upload: opening libvips took about 110 ms of CPU at every start
 * of the server (every browser test file starts one), for a feature an admin uses rarely.
 */
function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then(
    ({ default: sharp }) => {
      // libvips' operation cache keeps decoded inputs around; uploads are one-offs.
      sharp.cache(false);
      return sharp;
    },
    (error: unknown) => {
      // A failed load is tried again at the next upload, not kept for the process's life.
      loaded = null;
      throw error;
    },
  );
  return loaded;
}

interface Kind {
  format: 'png' | 'jpeg' | 'webp';
  contentType: ImageType;
  extension: 'png' | 'jpg' | 'webp';
}

const PNG: Kind = { format: 'png', contentType: 'image/png', extension: 'png' };
const JPEG: Kind = { format: 'jpeg', contentType: 'image/jpeg', extension: 'jpg' };
const WEBP: Kind = { format: 'webp', contentType: 'image/webp', extension: 'webp' };

const startsWith = (data: Buffer, bytes: number[], at = 0) =>
  data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);

/**
 * The format the first bytes announce. Only these three are handed to the decoder at all,
 * so SVG, GIF, TIFF, HEIF and the rest never reach a parser.
 */
function sniff(data: Buffer): Kind | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(data, [0xff, 0xd8, 0xff])) return JPEG;
  // "RIFF", 4 bytes of size, "WEBP"
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8))
    return WEBP;
  return null;
}

export const invalidImage = () =>
  new AppError(400, 'INVALID_IMAGE', 'Upload a PNG, JPEG or WebP image (at most 2 MB).');

export interface NormalizedImage {
  data: Buffer;
  contentType: ImageType;
  /** A new random name with the format's extension. */
  fileName: string;
}

/**
 * Decodes the image (the content decides, not its name or declared type) and encodes it
 * again in its own format: what we store and serve is pixels we wrote, with no metadata
 * (EXIF, GPS, ICC, comments) and no trailing bytes of the original.
 */
export async function normalizeImage(input: Buffer): Promise<NormalizedImage> {
  const kind = sniff(input);
  if (!kind) throw invalidImage();
  const sharp = await loadSharp();
  let data: Buffer;
  try {
    const options = {
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'warning',
      autoOrient: true,
    } as const;
    const meta = await sharp(input, options).metadata();
    if (meta.format !== kind.format) throw invalidImage();
    if (!meta.width || !meta.height || meta.width * meta.height > MAX_INPUT_PIXELS) {
      throw invalidImage();
    }
    const pipeline = sharp(input, options).resize({
      width: MAX_SIDE,
      height: MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    });
    if (kind === PNG) pipeline.png({ compressionLevel: 9, palette: meta.isPalette });
    else if (kind === JPEG) pipeline.jpeg({ quality: 85, mozjpeg: true });
    else pipeline.webp({ quality: 85 });
    data = await pipeline.toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    // Whatever libvips says about a broken file, for the client it is not an image.
    throw invalidImage();
  }
  return {
    data,
    contentType: kind.contentType,
    fileName: `${randomBytes(16).toString('hex')}.${kind.extension}`,
  };
}
