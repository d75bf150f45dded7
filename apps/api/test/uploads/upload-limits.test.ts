import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { bearer, signedIn, signIn } from '../support/auth-helpers.js';
import { createFixture } from '../support/fixtures.js';
import { PINNED_NOW } from '../support/test-app.js';

type Headers = Record<string, string>;

/** A multipart/form-data body with these text fields and files, as a browser sends it. */
async function form(
  fields: [string, string][],
  files: { field: string; data: Buffer; name: string }[],
): Promise<{ payload: Buffer; headers: Headers }> {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  for (const f of files) body.append(f.field, new Blob([f.data], { type: 'image/png' }), f.name);
  const request = new Request('http://local/', { method: 'POST', body });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

// Issue 18, point 16: two files, or too many fields, answered "image larger than 2 MB"; and
// uploads had no quota per organization.
describe('upload limits say what was wrong', () => {
  const dataDir = path.join(tmpdir(), `qless-upload-limits-${randomBytes(6).toString('hex')}`);
  beforeAll(async () => {
    await mkdir(dataDir, { mode: 0o700 });
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const s = useStack({ env: { DATA_DIR: dataDir, UPLOADS_PER_ORG_DAY: '3' }, fixture: false });
  let png: Buffer;
  beforeAll(async () => {
    png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 30, b: 30 } },
    })
      .png()
      .toBuffer();
  });

  const admin = async (suffix: string) => {
    const { orgId } = await createFixture(s.database, new Date(PINNED_NOW), suffix);
    return (
      await signedIn(s.app, s.database.db, {
        email: `admin@${suffix}.cm`,
        role: 'org_admin',
        organizationId: orgId,
      })
    ).headers;
  };
  const send = async (headers: Headers, body: { payload: Buffer; headers: Headers }) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });

  it('two files are 400 TOO_MANY_FILES and too many fields 400 TOO_MANY_FIELDS, not "larger than 2 MB"', async () => {
    const headers = await admin('files');
    const two = await send(
      headers,
      await form(
        [['upload_preset', 'qless_logos']],
        [
          { field: 'file', data: png, name: 'a.png' },
          { field: 'file', data: png, name: 'b.png' },
        ],
      ),
    );
    expect(two.statusCode).toBe(400);
    expect(two.json().code).toBe('TOO_MANY_FILES');
    expect(two.json().message).not.toMatch(/2 MB/);

    const fields = Array.from({ length: 8 }, (_, i): [string, string] => [`f${i}`, 'x']);
    const many = await send(
      headers,
      await form(fields, [{ field: 'file', data: png, name: 'a.png' }]),
    );
    expect(many.statusCode).toBe(400);
    expect(many.json().code).toBe('TOO_MANY_FIELDS');
    expect(many.json().message).not.toMatch(/2 MB/);
    expect(await s.database.db.selectFrom('uploads').select('file_name').execute()).toHaveLength(0);
  });

  it('an organization uploads at most its daily quota (429 UPLOAD_QUOTA_EXCEEDED); another is not held up', async () => {
    const one = () => form([], [{ field: 'file', data: png, name: 'logo.png' }]);
    try {
      // A day of its own, later than any other test's (signed in on that day).
      s.clock.set(new Date(Date.parse(PINNED_NOW) + 10 * 86_400_000));
      const first = await admin('quota-a');
      const second = await admin('quota-b');
      for (let i = 0; i < 3; i += 1) {
        const res = await send(first, await one());
        expect(res.statusCode, res.body).toBe(201);
      }
      const over = await send(first, await one());
      expect(over.statusCode).toBe(429);
      expect(over.json().code).toBe('UPLOAD_QUOTA_EXCEEDED');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect((await send(second, await one())).statusCode).toBe(201);
      // The next day (signed in again: a session idle a day has ended), it uploads again.
      s.clock.advance(86_400_000);
      const again = bearer(await signIn(s.app, 'admin@quota-a.cm'));
      expect((await send(again, await one())).statusCode).toBe(201);
    } finally {
      s.clock.set(PINNED_NOW);
    }
  });
});
