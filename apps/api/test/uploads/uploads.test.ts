import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32, deflateSync } from 'node:zlib';
import { uploadResponseSchema } from '@qless/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { signedIn } from '../support/auth-helpers.js';
import { createFixture, type Fixture } from '../support/fixtures.js';
import { PINNED_NOW } from '../support/test-app.js';

type Headers = Record<string, string>;

/** A multipart/form-data body as a browser would send it (the spec's client adds upload_preset). */
async function multipart(
  file: { data: Buffer; name: string; type: string } | null,
  field = 'file',
): Promise<{ payload: Buffer; headers: Headers }> {
  const form = new FormData();
  form.append('upload_preset', 'qless_logos');
  if (file) form.append(field, new Blob([file.data], { type: file.type }), file.name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** GPS position and a marker text in EXIF, as a phone's photo would carry. */
const EXIF = {
  IFD0: { Copyright: 'SECRET-MARKER-42' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '4/1 3/1 0/1',
    GPSLongitudeRef: 'E',
    GPSLongitude: '9/1 42/1 0/1',
  },
};

const logo = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 20, g: 90, b: 160 } } });

/** The EXIF block holds a GPS sub-directory (tag 0x8825, in either byte order). */
const hasGpsPointer = (exif: Buffer | undefined) =>
  exif !== undefined &&
  (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real, complete PNG of 8000 × 8000 black pixels (1 bit each) that compresses to a few
 * kilobytes: decoded it would claim 64 million pixels.
 */
function decompressionBomb(side = 8000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const raw = Buffer.alloc((1 + Math.ceil(side / 8)) * side); // filter byte 0 + zero pixels per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Sends raw bytes and resolves with the status line of the first answer. */
function statusLineOf(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n');
      if (end >= 0) {
        socket.destroy();
        resolve(received.slice(0, end));
      }
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`no answer; got ${JSON.stringify(received)}`));
    });
    socket.write(request);
  });
}

describe('logo uploads', () => {
  // Named now, since the stack's env is given now; made (private, as mkdtemp would) before
  // the stack's app starts.
  const dataDir = path.join(tmpdir(), `qless-uploads-${randomBytes(6).toString('hex')}`);
  beforeAll(async () => {
    await mkdir(dataDir, { mode: 0o700 });
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  // Two organizations of its own (A and B) instead of the one fixture organization.
  // More uploads than a day's quota (its own test is upload-limits.test.ts).
  const s = useStack({ env: { DATA_DIR: dataDir, UPLOADS_PER_ORG_DAY: '1000' }, fixture: false });
  let A: Fixture;
  let B: Fixture;
  let adminA: Headers;
  let staffA: Headers;
  let operator: Headers;

  beforeAll(async () => {
    A = await createFixture(s.database, new Date(PINNED_NOW), 'A');
    B = await createFixture(s.database, new Date(PINNED_NOW), 'B');
    adminA = (
      await signedIn(s.app, s.database.db, {
        email: 'admin@a.cm',
        role: 'org_admin',
        organizationId: A.orgId,
      })
    ).headers;
    staffA = (
      await signedIn(s.app, s.database.db, {
        email: 'staff@a.cm',
        role: 'staff',
        organizationId: A.orgId,
      })
    ).headers;
    operator = (await signedIn(s.app, s.database.db, { email: 'ops@qless.cm', role: 'operator' }))
      .headers;
  }, 60_000);

  async function upload(
    file: { data: Buffer; name: string; type: string } | null,
    headers: Headers = adminA,
    query = '',
  ) {
    const body = await multipart(file);
    return s.app.inject({
      method: 'POST',
      url: `/api/v1/uploads${query}`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  }

  /** Uploads, checks the answer and fetches the stored file back. */
  async function roundTrip(data: Buffer, name: string, type: string) {
    const res = await upload({ data, name, type });
    expect(res.statusCode, res.body).toBe(201);
    const { secure_url } = uploadResponseSchema.parse(res.json());
    expect(secure_url).toMatch(
      /^http:\/\/qless\.test\/api\/v1\/uploads\/[0-9a-f]{32}\.(png|jpg|webp)$/,
    );
    const served = await s.app.inject({ method: 'GET', url: new URL(secure_url).pathname });
    expect(served.statusCode).toBe(200);
    return { url: secure_url, served, bytes: served.rawPayload };
  }

  it('accepts a PNG, re-encodes it and serves it with a long cache', async () => {
    const png = await logo().png().withExif(EXIF).toBuffer();
    expect((await sharp(png).metadata()).exif).toBeDefined();
    const { url, served, bytes } = await roundTrip(png, 'logo.png', 'image/png');
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 320, height: 200 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('SECRET-MARKER-42'))).toBe(false);
    // Stored privately under DATA_DIR/uploads with the generated name, and recorded.
    const name = url.split('/').at(-1) ?? '';
    const file = await stat(path.join(dataDir, 'uploads', name));
    expect(file.mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dataDir, 'uploads'))).mode & 0o777).toBe(0o700);
    const row = await s.database.db
      .selectFrom('uploads')
      .selectAll()
      .where('file_name', '=', name)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      organization_id: A.orgId,
      content_type: 'image/png',
      bytes: bytes.length,
    });
  });

  it('accepts a JPEG and strips its EXIF, GPS position included', async () => {
    const jpeg = await logo().jpeg().withExif(EXIF).toBuffer();
    const before = await sharp(jpeg).metadata();
    expect(hasGpsPointer(before.exif)).toBe(true);
    expect(jpeg.includes(Buffer.from('SECRET-MARKER-42'))).toBe(true);
    const { served, bytes } = await roundTrip(jpeg, 'photo.jpg', 'image/jpeg');
    expect(served.headers['content-type']).toBe('image/jpeg');
    const after = await sharp(bytes).metadata();
    expect(after.format).toBe('jpeg');
    expect(after.exif).toBeUndefined();
    expect(hasGpsPointer(after.exif)).toBe(false);
    expect(bytes.includes(Buffer.from('SECRET-MARKER-42'))).toBe(false);
  });

  it('accepts a WebP, whatever name and type the browser gave it, and strips its EXIF', async () => {
    const webp = await logo().webp().withExif(EXIF).toBuffer();
    expect((await sharp(webp).metadata()).exif).toBeDefined();
    const { served, bytes } = await roundTrip(webp, 'logo.bin', 'application/octet-stream');
    expect(served.headers['content-type']).toBe('image/webp');
    const after = await sharp(bytes).metadata();
    expect(after.format).toBe('webp');
    expect(after.exif).toBeUndefined();
  });

  it('refuses what is not a PNG, JPEG or WebP picture, whatever it is called', async () => {
    const gif = await logo().gif().toBuffer();
    const png = await logo().png().toBuffer();
    const cases: [string, { data: Buffer; name: string; type: string }][] = [
      [
        'text renamed .png',
        { data: Buffer.from('hello, I am text\n'.repeat(20)), name: 'logo.png', type: 'image/png' },
      ],
      [
        'PNG header on garbage',
        {
          data: Buffer.concat([png.subarray(0, 33), randomBytes(4000)]),
          name: 'x.png',
          type: 'image/png',
        },
      ],
      [
        'truncated PNG',
        { data: png.subarray(0, Math.floor(png.length / 2)), name: 'x.png', type: 'image/png' },
      ],
      [
        'SVG',
        {
          data: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
          ),
          name: 'logo.svg',
          type: 'image/svg+xml',
        },
      ],
      [
        'SVG named .png',
        {
          data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          name: 'logo.png',
          type: 'image/png',
        },
      ],
      ['GIF', { data: gif, name: 'logo.gif', type: 'image/gif' }],
      ['GIF named .png', { data: gif, name: 'logo.png', type: 'image/png' }],
      ['decompression bomb', { data: decompressionBomb(), name: 'bomb.png', type: 'image/png' }],
      ['empty file', { data: Buffer.alloc(0), name: 'logo.png', type: 'image/png' }],
    ];
    const before = await s.database.db.selectFrom('uploads').select('file_name').execute();
    for (const [label, file] of cases) {
      const res = await upload(file);
      expect(res.statusCode, label).toBe(400);
      expect(res.json().code, label).toBe('INVALID_IMAGE');
    }
    const noFile = await upload(null);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().code).toBe('INVALID_IMAGE');
    const wrongField = await multipart({ data: png, name: 'logo.png', type: 'image/png' }, 'logo');
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: { ...adminA, ...wrongField.headers },
      payload: wrongField.payload,
    });
    expect(res.json().code).toBe('INVALID_IMAGE');
    // Broken multipart bodies are the sender's mistake, never a 500.
    const broken: [string, string][] = [
      ['multipart/form-data', 'garbage'],
      ['multipart/form-data; boundary=XyZ', 'garbage'],
      [
        'multipart/form-data; boundary=XyZ',
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      ],
    ];
    for (const [type, payload] of broken) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/v1/uploads',
        headers: { ...adminA, 'content-type': type },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().code, payload).toBe('INVALID_BODY');
    }
    const json = await s.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: adminA,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const after = await s.database.db.selectFrom('uploads').select('file_name').execute();
    expect(after.length).toBe(before.length);
  });

  it('refuses more than 2 MB with 413, declared or streamed', async () => {
    // Noise does not compress: about 3.6 MB.
    const big = await sharp(randomBytes(1100 * 1100 * 3), {
      raw: { width: 1100, height: 1100, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const declared = await upload({ data: big, name: 'big.png', type: 'image/png' });
    expect(declared.statusCode).toBe(413);
    expect(declared.json().code).toBe('PAYLOAD_TOO_LARGE');
    // No length announced (chunked): the limit is counted while the file streams in.
    const body = await multipart({ data: big, name: 'big.png', type: 'image/png' });
    const streamed = await s.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: { ...adminA, ...body.headers },
      payload: Readable.from(
        (function* () {
          for (let i = 0; i < body.payload.length; i += 64 * 1024) {
            yield body.payload.subarray(i, i + 64 * 1024);
          }
        })(),
      ),
    });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().code).toBe('PAYLOAD_TOO_LARGE');
    // Just under the limit is fine.
    const fits = await sharp(randomBytes(800 * 800 * 3), {
      raw: { width: 800, height: 800, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(fits.length).toBeLessThan(2 * 1024 * 1024);
    expect((await upload({ data: fits, name: 'fits.png', type: 'image/png' })).statusCode).toBe(
      201,
    );
  });

  it('answers 401 without a session and 413 for a declared oversize before reading the body', async () => {
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    const address = s.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    // Headers announce 3 MB; only a few bytes of body are ever sent.
    const head = (auth: string) =>
      'POST /api/v1/uploads HTTP/1.1\r\nHost: qless.test\r\n' +
      `${auth}Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 3000000\r\n\r\n--XyZ\r\n`;
    expect(await statusLineOf(address.port, head(''))).toBe('HTTP/1.1 401 Unauthorized');
    expect(
      await statusLineOf(address.port, head(`Authorization: ${adminA.authorization}\r\n`)),
    ).toBe('HTTP/1.1 413 Payload Too Large');
    const small = await upload(
      { data: await logo().png().toBuffer(), name: 'l.png', type: 'image/png' },
      {},
    );
    expect(small.statusCode).toBe(401);
  });

  it('keeps staff and other organizations out; operators upload for the one they name', async () => {
    const png = { data: await logo().png().toBuffer(), name: 'l.png', type: 'image/png' };
    expect((await upload(png, staffA)).statusCode).toBe(403);
    const other = await upload(png, adminA, `?organization_id=${B.orgId}`);
    expect(other.statusCode).toBe(403);
    expect(
      await s.database.db
        .selectFrom('uploads')
        .select('file_name')
        .where('organization_id', '=', B.orgId)
        .execute(),
    ).toEqual([]);
    expect((await upload(png, operator)).statusCode).toBe(400);
    const ops = await upload(png, operator, `?organization_id=${B.orgId}`);
    expect(ops.statusCode, ops.body).toBe(201);
    const forB = ops.json().secure_url as string;
    const row = await s.database.db
      .selectFrom('uploads')
      .select('organization_id')
      .where('file_name', '=', forB.split('/').at(-1) ?? '')
      .executeTakeFirstOrThrow();
    expect(row.organization_id).toBe(B.orgId);

    // A's admin cannot put B's logo on A's profile; its own upload is fine.
    const profile = (image_url: string) =>
      s.app.inject({
        method: 'PATCH',
        url: '/api/v1/organization/update/profile',
        headers: adminA,
        payload: { name: 'Guichet Unique A', start_time: '07:00', end_time: '18:00', image_url },
      });
    const refused = await profile(forB);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('INVALID_IMAGE_URL');
    const mine = (await upload(png)).json().secure_url as string;
    const accepted = await profile(mine);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().organizationData.image_url).toBe(mine);
    // The logo shows on the public pages.
    const listed = await s.app.inject({ method: 'GET', url: `/api/v1/organizations/${A.orgId}` });
    expect(listed.json().organization.image_url).toBe(mine);
  });

  it('serves only names it issued; the page CSP allows our images', async () => {
    const cases = [
      '/api/v1/uploads/0123456789abcdef0123456789abcdef.png',
      '/api/v1/uploads/logo.png',
      '/api/v1/uploads/..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/v1/uploads/%2e%2e',
    ];
    for (const url of cases) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
    const files = await readdir(path.join(dataDir, 'uploads'));
    expect(files.every((f) => /^[0-9a-f]{32}\.(png|jpg|webp)$/.test(f))).toBe(true);
    const page = await s.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-security-policy']).toMatch(/img-src 'self'/);
  });
});
