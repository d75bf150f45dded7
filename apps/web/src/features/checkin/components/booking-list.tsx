import type { CheckinBooking } from '@qless/contract';
import { localizedServiceName } from '@qless/contract/core';
import { useI18n } from '../../../i18n/i18n';

const STATUS_KEY = {
  held: 'checkin.status.held',
  confirmed: 'checkin.status.confirmed',
  checked_in: 'checkin.status.checked_in',
  no_show: 'checkin.status.no_show',
  cancelled: 'checkin.status.cancelled',
} as const;

interface Props {
  bookings: readonly CheckinBooking[];
  /** Queue numbers of the checked-in bookings (booking id → "A-042"). */
  queueNumbers?: ReadonlyMap<string, string>;
  /** Actions need the server: off while offline. */
  canAct: boolean;
  onAction: (booking: CheckinBooking, action: 'no_show' | 'cancel') => void;
}

/** Today's bookings, earliest first, each with its state and what can be done to it. */
export function BookingList({ bookings, queueNumbers, canAct, onAction }: Props) {
  const { t, locale } = useI18n();
  if (bookings.length === 0) return <p className="empty-state">{t('checkin.list.empty')}</p>;
  return (
    <ol className="checkin-list">
      {bookings.map((b) => {
        const service = localizedServiceName(b, locale);
        return (
          <li key={b.booking_id} className={`checkin-item checkin-item--${b.status}`}>
            <div className="checkin-item__time">{b.time}</div>
            <div className="checkin-item__main">
              <p className="checkin-item__name">{b.cus_name}</p>
              <p className="checkin-item__meta">
                {service}
                {b.ticket_code ? <span className="checkin-item__code">{b.ticket_code}</span> : null}
              </p>
              <p className="checkin-item__state">
                <span className={`checkin-badge checkin-badge--${b.status}`}>
                  {t(STATUS_KEY[b.status])}
                </span>
                {b.status === 'checked_in' && b.checked_in_time ? (
                  <span className="checkin-item__when">
                    {' '}
                    {t('checkin.list.checkedInAt', { time: b.checked_in_time })}
                  </span>
                ) : null}
                {b.status === 'checked_in' && queueNumbers?.get(b.booking_id) ? (
                  <span className="checkin-item__number" data-testid="queue-number">
                    {' · '}
                    {t('checkin.list.queueNumber', {
                      number: queueNumbers.get(b.booking_id) ?? '',
                    })}
                  </span>
                ) : null}
              </p>
            </div>
            {b.status === 'confirmed' || b.status === 'held' ? (
              <div className="checkin-item__actions">
                {b.status === 'confirmed' ? (
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    disabled={!canAct}
                    onClick={() => onAction(b, 'no_show')}
                  >
                    {t('checkin.action.noShow')}
                    <span className="visually-hidden"> — {b.cus_name}</span>
                  </button>
                ) : null}
                <button
                  type="button"
                  className="btn btn--secondary btn--small btn--danger-text"
                  disabled={!canAct}
                  onClick={() => onAction(b, 'cancel')}
                >
                  {t('checkin.action.cancel')}
                  <span className="visually-hidden"> — {b.cus_name}</span>
                </button>
              </div>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
