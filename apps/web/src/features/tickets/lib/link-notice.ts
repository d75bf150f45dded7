import type { MessageKey } from '../../../i18n/en';

/**
 * Why a booking's short link `/t/{code}` sent the browser to My bookings (the server says so in
 * `?link=`): it opens no ticket, or too many were opened from this connection. Anything else
 * says nothing.
 */
export function linkNoticeKey(search: string): MessageKey | null {
  const link = new URLSearchParams(search).get('link');
  if (link === 'unknown') return 'myBookings.link.unknown';
  if (link === 'busy') return 'myBookings.link.busy';
  return null;
}
