import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { ApiError } from '../../../lib/api-client';
import { durationText, errorText, instantText, mapUrl, placeText, waitText } from './booking-text';

describe('durationText and waitText', () => {
  it('names the cut-off as people say it, in both languages', () => {
    expect(durationText(120, 'en-CM')).toBe('2\u00a0hours');
    expect(durationText(90, 'en-CM')).toBe('1\u00a0hour 30\u00a0minutes');
    expect(durationText(45, 'en-CM')).toBe('45\u00a0minutes');
    // A no-break space keeps the number with its unit.
    expect(durationText(120, 'fr-CM')).toBe('2\u00a0heures');
    expect(durationText(60, 'fr-CM')).toBe('1\u00a0heure');
  });

  it('says a wait in seconds under a minute, else in minutes rounded up', () => {
    expect(waitText(42, 'en-CM')).toBe('42\u00a0seconds');
    expect(waitText(61, 'en-CM')).toBe('2\u00a0minutes');
    expect(waitText(900, 'fr-CM')).toBe('15\u00a0minutes');
  });
});

describe('instantText', () => {
  it('shows the deadline in the organization zone, not the machine one (UTC+14 here)', () => {
    expect(instantText('2026-11-26T11:00:00Z', 'Africa/Douala', 'en-CM')).toBe('26 Nov, 12:00');
    expect(instantText('2026-11-26T11:00:00Z', 'Africa/Douala', 'fr-CM')).toBe('26 nov., 12:00');
  });
});

describe('mapUrl', () => {
  it('searches the address and the city, encoded', () => {
    expect(mapUrl('Rue Joss, Akwa', 'Douala')).toBe(
      'https://www.google.com/maps/search/?api=1&query=Rue%20Joss%2C%20Akwa%2C%20Douala',
    );
    expect(mapUrl('  ', 'Buea')).toBe('https://www.google.com/maps/search/?api=1&query=Buea');
  });

  it('does not name the city twice when the address already does', () => {
    expect(placeText('Hospital Roundabout, Azire, Bamenda', 'Bamenda')).toBe(
      'Hospital Roundabout, Azire, Bamenda',
    );
    expect(placeText('Carrefour Warda, Yaounde', 'Yaoundé')).toBe('Carrefour Warda, Yaounde');
    expect(placeText('Rue Joss', 'Douala')).toBe('Rue Joss, Douala');
  });
});

describe('errorText', () => {
  it('names each refusal of self-service by its code', () => {
    const cases = [
      [403, 'BOOKING_ACCESS_DENIED', 'ticketPage.error.denied'],
      [404, 'BOOKING_NOT_FOUND', 'ticketPage.error.notFound'],
      [409, 'CHANGE_PAST_CUTOFF', 'ticketPage.error.pastCutoff'],
      [409, 'BOOKING_NOT_CHANGEABLE', 'ticketPage.error.notChangeable'],
      [409, 'SAME_SLOT', 'ticketPage.error.sameSlot'],
      [409, 'SLOT_TAKEN', 'ticketPage.error.slotTaken'],
      [503, null, 'ticketPage.error.server'],
    ] as const;
    for (const [status, code, key] of cases) {
      expect(errorText(new ApiError(status, code, 'x')).key, String(code)).toBe(key);
    }
    expect(errorText(new ApiError(0, null, 'Network error')).key).toBe('ticketPage.error.network');
    expect(errorText(new Error('boom')).key).toBe('ticketPage.error.generic');
  });

  it('carries the wait of "too many attempts" when the server gave one', () => {
    expect(errorText(new ApiError(429, 'TOO_MANY_ACCESS_ATTEMPTS', 'x', [], 300))).toEqual({
      key: 'ticketPage.error.tooMany',
      wait: 300,
    });
    expect(errorText(new ApiError(429, 'TOO_MANY_ACCESS_ATTEMPTS', 'x')).key).toBe(
      'ticketPage.error.tooManyLater',
    );
  });
});

describe('ticket page and My bookings texts', () => {
  const mine = (catalog: Record<string, string>) =>
    Object.entries(catalog).filter(
      ([key]) =>
        key.startsWith('ticketPage.') || key.startsWith('myBookings.') || key === 'nav.myBookings',
    );

  it('follow French typography: a no-break space before : ; ! ?, ’ and never XAF', () => {
    const french = mine(fr);
    expect(french.length).toBeGreaterThan(100);
    for (const [key, text] of french) {
      expect(text, key).not.toMatch(/ [:;!?]/);
      expect(text, key).not.toMatch(/[^\u00a0\u202f\s][;!?]/);
      // A colon ends a label in French text ("Code du ticket : …"); URLs are not in these texts.
      expect(text, key).not.toMatch(/[^\u00a0\u202f]:(?!\/\/)/);
      expect(text, key).not.toContain('XAF');
      // One apostrophe throughout: the typographic one.
      expect(text, key).not.toContain("'");
    }
  });

  it('say the fee through {fee} (money()), never as a fixed amount', () => {
    for (const [key, text] of [...mine(en), ...mine(fr)]) {
      expect(text, key).not.toMatch(/\b2 ?(XAF|FCFA)\b/);
    }
  });
});
