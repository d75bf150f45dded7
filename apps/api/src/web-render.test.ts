import { pickLocale } from '@qless/contract/web-page';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { serializeRequest } from './request-log.js';
import { scriptJson } from './web-render.js';

describe('pickLocale', () => {
  it('takes the cookie first, then Accept-Language by weight, else English', () => {
    expect(pickLocale('fr', 'en-US,en')).toBe('fr');
    expect(pickLocale('de', 'fr-CM,fr;q=0.9')).toBe('fr');
    expect(pickLocale(undefined, 'de-DE,en;q=0.3,fr;q=0.8')).toBe('fr');
    expect(pickLocale(undefined, 'fr;q=0, en-GB')).toBe('en');
    expect(pickLocale(undefined, 'de, es')).toBe('en');
    expect(pickLocale(undefined, undefined)).toBe('en');
  });
});

describe('scriptJson', () => {
  it('cannot close the script or open a comment, and reads back the same', () => {
    const value = { name: '</script><script>alert(1)</script><!--', line: '\u2028\u2029' };
    const text = scriptJson(value);
    expect(text).not.toContain('<');
    expect(text).not.toContain('\u2028');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('page URLs in the log', () => {
  const logged = (url: string) => serializeRequest({ url } as FastifyRequest).url;
  it('leave out a ticket page key and the tokens of invitation and reset pages', () => {
    expect(logged('/ticket/QL-1?k=secret')).toBe('/ticket/QL-1?[redacted]');
    expect(logged('/visit/v1?k=secret')).toBe('/visit/v1?[redacted]');
    expect(logged('/visit/v1?x=1&kk=secret')).toBe('/visit/v1?[redacted]');
    expect(logged('/api/v1/visits/v1/feedbackLink?key=s')).toBe(
      '/api/v1/visits/v1/feedbackLink?[redacted]',
    );
    expect(logged('/invite/tok123')).toBe('/invite/[redacted]');
    expect(logged('/reset-password/tok123')).toBe('/reset-password/[redacted]');
    expect(logged('/api/v1/auth/invitations/tok123')).toBe('/api/v1/auth/invitations/[redacted]');
    expect(logged('/organizations?q=etat')).toBe('/organizations?q=etat');
  });
  it('leave out the values of secret parameters on any path, and the queries of booking routes', () => {
    expect(logged('/api/v1/bookings/b1?key=secret')).toBe('/api/v1/bookings/b1?[redacted]');
    expect(logged('/api/v1/tickets/QL-1?x=1')).toBe('/api/v1/tickets/QL-1?[redacted]');
    expect(logged('/api/v1/organizations?q=etat&KEY=secret&page=2')).toBe(
      '/api/v1/organizations?q=etat&KEY=[redacted]&page=2',
    );
    expect(logged('/nowhere?x-booking-key=secret&t=tok&%6B=s')).toBe(
      '/nowhere?x-booking-key=[redacted]&t=[redacted]&%6B=[redacted]',
    );
    expect(logged('/nowhere?%E0%A4%A=1')).toBe('/nowhere?%E0%A4%A=1');
  });
});
