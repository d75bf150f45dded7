import type { OrganizationProfile } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { normalizeTime, profileFormValues, readProfileForm } from './profile-form';

const PROFILE = {
  organization_id: 'org-1',
  name: 'Banque des Savanes',
  location: 'Avenue Kennedy',
  city: 'Yaoundé',
  category: 'Banque',
  email: 'direction@savanes.cm',
  public_email: null,
  image_url: null,
  time_zone: 'Africa/Douala',
  start_time: { Microseconds: 28_800_000_000, Valid: true },
  end_time: { Microseconds: 61_200_000_000, Valid: true },
  opens_at: '08:00',
  closes_at: '17:00',
  open_days: [1, 2, 3, 4, 5],
  closures: [],
  verified: false,
  missing_fields: ['open_days'],
  listed: false,
  change_cutoff_minutes: 120,
  waitlist_hold_minutes: 15,
} as OrganizationProfile;

describe('profile form', () => {
  it('reads times as people write them where a browser has no time picker: "8h" is 08:00', () => {
    expect(normalizeTime('08:00')).toBe('08:00');
    expect(normalizeTime('8h')).toBe('08:00');
    expect(normalizeTime('8h30')).toBe('08:30');
    expect(normalizeTime(' 17 h 45 ')).toBe('17:45');
    expect(normalizeTime('7:05')).toBe('07:05');
    expect(normalizeTime('08.30')).toBe('08:30');
    expect(normalizeTime('08:00:00')).toBe('08:00:00');
    for (const bad of ['25h', '8h75', 'huit heures', ''])
      expect(normalizeTime(bad)).toBe(bad.trim());
  });

  it('sends "8h" as 08:00 instead of refusing it', () => {
    const values = { ...profileFormValues(PROFILE), start_time: '8h', days_confirmed: true };
    expect(readProfileForm(values)).toMatchObject({ ok: true, request: { start_time: '08:00' } });
  });

  it('asks the admin of a new organization to confirm its Monday-to-Friday days before saving', () => {
    const values = profileFormValues(PROFILE);
    expect(values.days_confirmed).toBe(false);
    expect(readProfileForm(values)).toEqual({
      ok: false,
      errors: { days_confirmed: 'profile.error.confirmDays' },
    });
    expect(readProfileForm({ ...values, days_confirmed: true })).toMatchObject({
      ok: true,
      request: { open_days: [1, 2, 3, 4, 5] },
    });
    // Days already confirmed: nothing to tick.
    const confirmed = profileFormValues({ ...PROFILE, missing_fields: [] });
    expect(confirmed.days_confirmed).toBe(true);
    expect(readProfileForm(confirmed).ok).toBe(true);
  });

  it('sends the waitlist hold in minutes, 5 to 120', () => {
    const values = { ...profileFormValues(PROFILE), days_confirmed: true };
    expect(values.waitlist_hold_minutes).toBe('15');
    expect(readProfileForm({ ...values, waitlist_hold_minutes: ' 30 ' })).toMatchObject({
      ok: true,
      request: { waitlist_hold_minutes: 30 },
    });
    for (const bad of ['4', '121', '', '1.5', 'quinze']) {
      expect(readProfileForm({ ...values, waitlist_hold_minutes: bad })).toEqual({
        ok: false,
        errors: { waitlist_hold_minutes: 'error.INVALID_WAITLIST_HOLD' },
      });
    }
  });
});
