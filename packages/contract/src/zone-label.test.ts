import { describe, expect, it } from 'vitest';
import { zoneLabel } from './zone-label.js';

describe('zoneLabel', () => {
  const at = new Date('2026-11-26T12:00:00Z');
  it('names Douala with its offset in each language', () => {
    expect(zoneLabel('fr', 'Africa/Douala', at)).toBe('heure de Douala (UTC+1)');
    expect(zoneLabel('en', 'Africa/Douala', at)).toBe('Douala time (UTC+1)');
  });
  it('reads underscores as spaces and UTC as UTC', () => {
    expect(zoneLabel('en', 'America/New_York', at)).toBe('New York time (UTC-5)');
    expect(zoneLabel('en', 'UTC', at)).toBe('UTC time (UTC)');
  });
});
