import type { CustomerBooking } from '@qless/contract';
import { useI18n } from '../../../i18n/i18n';

/**
 * Whose booking it is: the name and the ticket code. Service, organization, date, time and
 * place are in the page's summary card above (ticket-summary.tsx), filled in place.
 */
export function BookingRows({ booking }: { booking: CustomerBooking }) {
  const { t } = useI18n();
  return (
    <dl className="ticket-rows ticket-card">
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
