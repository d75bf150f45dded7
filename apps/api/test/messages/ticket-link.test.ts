import { describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';

/**
 * A booking's short link `/t/{code}` (decision 141) opened in a browser: a page to read. A link
 * that opens nothing (mistyped, cut, too long — up to the server's 100 characters a path
 * parameter, past which any route answers 414) lands on My bookings,
 * which says so; past the limit of opens from one address, My bookings says to wait — never an
 * error's JSON.
 */
describe('a short link that opens no ticket', () => {
  const s = useStack();
  const open = (code: string, remoteAddress = '198.51.100.40') =>
    s.app.inject({ method: 'GET', url: `/t/${encodeURIComponent(code)}`, remoteAddress });

  it('goes to My bookings, which says the link opens no ticket', async () => {
    for (const code of ['0000000000AB', 'not-a-code', 'X'.repeat(90), '%00']) {
      const res = await open(code);
      expect([res.statusCode, res.headers.location], code).toEqual([
        302,
        '/my-bookings?link=unknown',
      ]);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('past 300 opens from one address in 10 minutes, goes to My bookings, which says to wait', async () => {
    for (let i = 0; i < 300; i++) {
      expect((await open('0000000000AB', '198.51.100.41')).headers.location).toBe(
        '/my-bookings?link=unknown',
      );
    }
    const limited = await open('0000000000AB', '198.51.100.41');
    expect([limited.statusCode, limited.headers.location]).toEqual([302, '/my-bookings?link=busy']);
    // Another address is not held back.
    expect((await open('0000000000AB', '198.51.100.42')).headers.location).toBe(
      '/my-bookings?link=unknown',
    );
  });
});
