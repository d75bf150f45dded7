import { useI18n } from '../../../i18n/i18n';
import { mapUrl } from '../lib/booking-text';

/** The "Place" row of a ticket: the address and a map link built from it (new tab). */
export function PlaceRow({
  place,
  location,
  city,
}: {
  place: string;
  location: string;
  city: string;
}) {
  const { t } = useI18n();
  return (
    <div className="ticket-rows__row">
      <dt>{t('ticketPage.row.place')}</dt>
      <dd>
        {place}
        <a
          className="ticket-rows__sub"
          href={mapUrl(location, city)}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('ticketPage.directions')}{' '}
          <span className="visually-hidden">{t('ticketPage.newTab')}</span>
        </a>
      </dd>
    </div>
  );
}
