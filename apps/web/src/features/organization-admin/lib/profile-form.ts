import type { OrganizationProfile, UpdateProfileRequest } from '@qless/contract';
import { MAX_CHANGE_CUTOFF_MINUTES, WAITLIST_HOLD_MINUTES } from '@qless/contract/core';
import type { MessageKey } from '../../../i18n/en';

export interface ProfileFormValues {
  name: string;
  start_time: string;
  end_time: string;
  location: string;
  city: string;
  category: string;
  time_zone: string;
  /** 0 = Sunday, ascending. */
  open_days: number[];
  image_url: string | null;
  /** Minutes before a slot after which customers may no longer change it (as typed). */
  change_cutoff_minutes: string;
  /** Minutes a waitlist offer of a freed seat stays open (as typed; 5–120). */
  waitlist_hold_minutes: string;
  /**
   * The admin ticked "these are our opening days". Asked only while the server says the
   * days are unconfirmed (a new organization's Monday to Friday); true otherwise.
   */
  days_confirmed: boolean;
}
export type ProfileField = keyof ProfileFormValues;

export const PROFILE_FIELD_KEYS: Record<ProfileField, MessageKey | null> = {
  name: 'profile.error.name',
  start_time: null,
  end_time: null,
  location: 'profile.error.location',
  city: 'profile.error.city',
  category: 'profile.error.category',
  time_zone: null,
  open_days: null,
  image_url: null,
  change_cutoff_minutes: null,
  waitlist_hold_minutes: null,
  days_confirmed: null,
};

export function profileFormValues(profile: OrganizationProfile): ProfileFormValues {
  return {
    name: profile.name,
    start_time: profile.opens_at,
    end_time: profile.closes_at,
    location: profile.location,
    city: profile.city,
    category: profile.category,
    time_zone: profile.time_zone,
    open_days: [...profile.open_days],
    image_url: profile.image_url,
    change_cutoff_minutes: String(profile.change_cutoff_minutes),
    waitlist_hold_minutes: String(profile.waitlist_hold_minutes),
    days_confirmed: !profile.missing_fields.includes('open_days'),
  };
}

/** The contract's time of day: HH:MM or HH:MM:SS, 24-hour clock. */
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

/**
 * A time as people write it, in the contract's form: the time picker's "08:00", and where
 * a browser shows a plain text box instead, "8h", "8h30", "8:30", "08.30" or "8" (seen in a trial:
 * "8h" was refused). Anything else is left as typed, for the check to refuse.
 */
export function normalizeTime(text: string): string {
  const written = text.trim().toLowerCase();
  if (TIME.test(written)) return written;
  const match = /^(\d{1,2})\s*(?:[h:.]\s*(\d{2})?)?$/.exec(written);
  if (!match) return written;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? '0');
  if (hours > 23 || minutes > 59) return written;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

function seconds(time: string): number {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  return h * 3600 + m * 60 + s;
}

export type ProfileFormResult =
  | { ok: true; request: UpdateProfileRequest }
  | { ok: false; errors: Partial<Record<ProfileField, MessageKey>> };

/** The browser-side check and the request. The e-mail is never sent: it is not changed here. */
export function readProfileForm(values: ProfileFormValues): ProfileFormResult {
  const errors: Partial<Record<ProfileField, MessageKey>> = {};
  const name = values.name.trim();
  const start = normalizeTime(values.start_time);
  const end = normalizeTime(values.end_time);
  if (!name || name.length > 200) errors.name = 'profile.error.name';
  if (!TIME.test(start)) errors.start_time = 'error.INVALID_TIME';
  if (!TIME.test(end)) errors.end_time = 'error.INVALID_TIME';
  else if (!errors.start_time && seconds(end) <= seconds(start)) {
    errors.end_time = 'error.INVALID_HOURS';
  }
  if (values.location.trim().length > 300) errors.location = 'profile.error.location';
  if (values.city.trim().length > 100) errors.city = 'profile.error.city';
  if (values.category.trim().length > 100) errors.category = 'profile.error.category';
  const cutoff = values.change_cutoff_minutes.trim();
  const cutoffMinutes = Number(cutoff);
  if (!/^\d{1,5}$/.test(cutoff) || cutoffMinutes > MAX_CHANGE_CUTOFF_MINUTES) {
    errors.change_cutoff_minutes = 'error.INVALID_CUTOFF';
  }
  const hold = values.waitlist_hold_minutes.trim();
  const holdMinutes = Number(hold);
  if (
    !/^\d{1,3}$/.test(hold) ||
    holdMinutes < WAITLIST_HOLD_MINUTES.min ||
    holdMinutes > WAITLIST_HOLD_MINUTES.max
  ) {
    errors.waitlist_hold_minutes = 'error.INVALID_WAITLIST_HOLD';
  }
  if (!values.days_confirmed) errors.days_confirmed = 'profile.error.confirmDays';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      name,
      start_time: start,
      end_time: end,
      location: values.location.trim(),
      city: values.city.trim(),
      category: values.category.trim(),
      time_zone: values.time_zone,
      open_days: [...new Set(values.open_days)].sort((a, b) => a - b),
      image_url: values.image_url,
      change_cutoff_minutes: cutoffMinutes,
      waitlist_hold_minutes: holdMinutes,
    },
  };
}
