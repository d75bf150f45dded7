import type { CustomerBooking } from '@qless/contract';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { placeText, serviceName } from '../lib/booking-text';
import { PlaceRow } from './place-row';

/** What was booked: service, organization, date and time, place, name and ticket code. */
export function BookingRows({ booking }: { booking: CustomerBooking }) {
  const { t, locale, intlLocale, zone } = useI18n();
  const org = booking.organization;
  const place = placeText(org.location, org.city);
  return (
    <dl className="ticket-rows ticket-card">
      <div className="ticket-rows__row">
        <dt>{t('ticketPage.row.service')}</dt>
        <dd>{serviceName(booking, locale)}</dd>
      </div>
      <div className="ticket-rows__row">
        <dt>{t('ticketPage.row.organization')}</dt>
        <dd>{org.name}</dd>
      </div>
      <div className="ticket-rows__row">
        <dt>{t('ticketPage.row.date')}</dt>
        <dd data-testid="booking-date">{formatDate(booking.date, intlLocale, LONG_DATE)}</dd>
      </div>
      <div className="ticket-rows__row">
        <dt>{t('ticketPage.row.time')}</dt>
        <dd>
          <span data-testid="booking-time">
            {t('ticketPage.timeRange', { start: booking.time, end: booking.end_time })}
          </span>
          <span className="ticket-rows__sub">
            {zone(org.time_zone, new Date(booking.starts_at))}
          </span>
        </dd>
      </div>
      {place ? <PlaceRow place={place} location={org.location} city={org.city} /> : null}
      <div className="ticket-rows__row">
        <dt>{t('ticketPage.row.name')}</dt>
        <dd>{booking.customer_name}</dd>
      </div>
      {booking.code ? (
        <div className="ticket-rows__row ticket-rows__row--code">
          <dt>{t('ticketPage.codeLabel')}</dt>
          <dd data-testid="ticket-code">{booking.code}</dd>
        </div>
      ) : null}
    </dl>
  );
}
