import { describe, expect, it } from 'vitest';
import { APP_SHELL_URL, isKeptFile, isOfflinePage, type OfflineManifest } from './offline-rules';

describe('the pages the service worker opens offline', () => {
  it('are a ticket and My bookings', () => {
    expect(isOfflinePage('/ticket/QL-ABC123')).toBe(true);
    expect(isOfflinePage('/ticket/QL-ABC123/')).toBe(true);
    expect(isOfflinePage('/my-bookings')).toBe(true);
  });

  it('are nothing else: not the organization area, the console, the catalogue or the API', () => {
    for (const path of [
      '/',
      '/organization',
      '/organization/',
      '/organization/today',
      '/platform',
      '/organizations',
      '/service/1/slots',
      '/ticket',
      '/ticket/',
      '/ticket/QL-1/extra',
      '/my-bookings/extra',
      '/api/v1/bookings/1',
      '/api/v1/tickets/QL-1',
    ]) {
      expect(isOfflinePage(path), path).toBe(false);
    }
  });
});

describe('the files the service worker keeps', () => {
  const manifest: OfflineManifest = {
    version: '0123456789abcdef',
    required: ['/assets/index-AAAAAAAA.js', '/favicon.svg'],
    optional: ['/assets/fr-BBBBBBBB.js'],
  };

  it('are the shell and the files of its manifest', () => {
    expect(isKeptFile(APP_SHELL_URL, manifest)).toBe(true);
    expect(isKeptFile('/assets/index-AAAAAAAA.js', manifest)).toBe(true);
    expect(isKeptFile('/assets/fr-BBBBBBBB.js', manifest)).toBe(true);
    expect(isKeptFile('/assets/admin-CCCCCCCC.js', manifest)).toBe(false);
    expect(isKeptFile('/index.html', manifest)).toBe(false);
  });

  it('never include an API answer, even one a manifest would name', () => {
    const listed = { ...manifest, required: ['/api/v1/bookings/1', '/api/v1/organization/data'] };
    expect(isKeptFile('/api/v1/bookings/1', listed)).toBe(false);
    expect(isKeptFile('/api/v1/organization/data', listed)).toBe(false);
  });
});
