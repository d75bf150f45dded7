import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, onUnauthorized } from './api-client';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(body === null ? null : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json', ...headers },
      }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('apiFetch', () => {
  it('sends extra headers with the JSON ones', async () => {
    const fetch = answer(200, { ok: true });
    vi.stubGlobal('fetch', fetch);
    await apiFetch('/x', { method: 'POST', headers: { 'x-booking-key': 'k1' } });
    expect(fetch.mock.calls[0]?.[1]?.headers).toEqual({
      'x-booking-key': 'k1',
      accept: 'application/json',
    });
  });

  it('sends PATCH with a JSON body', async () => {
    const fetch = answer(200, { ok: true });
    vi.stubGlobal('fetch', fetch);
    await expect(apiFetch('/x', { method: 'PATCH', body: { a: 1 } })).resolves.toEqual({
      ok: true,
    });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe('{"a":1}');
    expect(init?.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it('sends FormData as it is, leaving the multipart content type to the browser', async () => {
    const fetch = answer(200, { secure_url: '/media/a.png' });
    vi.stubGlobal('fetch', fetch);
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png');
    await apiFetch('/up', { method: 'POST', body: form });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.body).toBe(form);
    expect(init?.headers).not.toHaveProperty('content-type');
  });

  it('sends DELETE without a body', async () => {
    const fetch = answer(200, { closures: [] });
    vi.stubGlobal('fetch', fetch);
    await apiFetch('/c/2026-12-25', { method: 'DELETE' });
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ method: 'DELETE', body: null });
  });

  it('keeps the field problems and the Retry-After of a refusal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const details = [{ path: 'duration', code: 'INVALID_DURATION', message: 'too short' }];
    vi.stubGlobal(
      'fetch',
      answer(429, { code: 'INVALID_DURATION', message: 'm', details }, { 'retry-after': '90' }),
    );
    const error = await apiFetch('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'INVALID_DURATION', details, retryAfter: 90 });
  });

  it('tells the listeners of every 401, and stops when they unsubscribe', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('fetch', answer(401, { code: 'UNAUTHORIZED', message: 'm' }));
    const seen: (string | null)[] = [];
    const stop = onUnauthorized((e) => seen.push(e.code));
    await apiFetch('/x').catch(() => undefined);
    stop();
    await apiFetch('/x').catch(() => undefined);
    expect(seen).toEqual(['UNAUTHORIZED']);
  });

  it('does not tell them of other refusals', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('fetch', answer(403, { code: 'FORBIDDEN', message: 'm' }));
    const seen: unknown[] = [];
    const stop = onUnauthorized((e) => seen.push(e));
    await apiFetch('/x').catch(() => undefined);
    stop();
    expect(seen).toEqual([]);
  });
});
