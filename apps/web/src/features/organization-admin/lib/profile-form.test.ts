import { describe, expect, it } from 'vitest';
import { type ProfileFormValues, readProfileForm } from './profile-form';

const valid: ProfileFormValues = {
  name: ' Banque Atlantique ',
  start_time: '08:00',
  end_time: '16:30:00',
  location: 'Akwa',
  city: 'Douala',
  category: 'Bank',
  time_zone: 'Africa/Douala',
  open_days: [5, 1, 2, 3, 4, 1],
  image_url: null,
  change_cutoff_minutes: ' 90 ',
};

describe('readProfileForm', () => {
  it('accepts HH:MM and HH:MM:SS and sends the open days once each, ascending', () => {
    expect(readProfileForm(valid)).toEqual({
      ok: true,
      request: {
        name: 'Banque Atlantique',
        start_time: '08:00',
        end_time: '16:30:00',
        location: 'Akwa',
        city: 'Douala',
        category: 'Bank',
        time_zone: 'Africa/Douala',
        open_days: [1, 2, 3, 4, 5],
        image_url: null,
        change_cutoff_minutes: 90,
      },
    });
  });
  it('never sends the e-mail', () => {
    const result = readProfileForm(valid);
    expect(result.ok && 'email' in result.request).toBe(false);
  });
  it('refuses times that are not HH:MM or HH:MM:SS', () => {
    for (const time of ['8:00', '24:00', '08:60', '0800', '08:00:6', '', '8am']) {
      expect(readProfileForm({ ...valid, start_time: time }), time).toEqual({
        ok: false,
        errors: { start_time: 'error.INVALID_TIME' },
      });
    }
  });
  it('wants the end after the start', () => {
    expect(readProfileForm({ ...valid, start_time: '17:00', end_time: '16:59:59' })).toEqual({
      ok: false,
      errors: { end_time: 'error.INVALID_HOURS' },
    });
    expect(readProfileForm({ ...valid, start_time: '08:00', end_time: '08:00:00' }).ok).toBe(false);
  });
  it('requires the name', () => {
    expect(readProfileForm({ ...valid, name: '   ' })).toEqual({
      ok: false,
      errors: { name: 'profile.error.name' },
    });
  });
  it('takes a cut-off of 0 to 10080 whole minutes', () => {
    for (const minutes of ['0', '120', '10080']) {
      const result = readProfileForm({ ...valid, change_cutoff_minutes: minutes });
      expect(result.ok && result.request.change_cutoff_minutes).toBe(Number(minutes));
    }
    for (const minutes of ['', '-5', '10081', '1.5', '2h', '1e3', '999999']) {
      expect(readProfileForm({ ...valid, change_cutoff_minutes: minutes }), minutes).toEqual({
        ok: false,
        errors: { change_cutoff_minutes: 'error.INVALID_CUTOFF' },
      });
    }
  });
});
