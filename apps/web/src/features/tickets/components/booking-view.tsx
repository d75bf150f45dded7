import type { CustomerBooking } from '@qless/contract';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { durationText, instantText } from '../lib/booking-text';
import { stateOf } from '../lib/device-list';
import { BookingDialogs } from './booking-dialogs';
import { BookingRows } from './booking-rows';
import { type LoadAvailability, ReschedulePicker } from './reschedule-picker';
import { TicketQr } from './ticket-qr';
import { useBookingChange } from './use-booking-change';
import { useTicketFiles } from './use-ticket-files';

interface Props {
  booking: CustomerBooking;
  accessKey: string;
  /** The server's new version of the booking (after a change or a refresh). */
  onChanged: (booking: CustomerBooking) => void;
  /** Reads the booking again (after a change the server refused as too late). */
  onRefresh: () => void;
  loadAvailability: LoadAvailability;
  /** The slots page of a service: where a payment in flight is resumed, another slot booked. */
  slotsHref: (serviceId: string) => string;
}

/**
 * A booking the customer may manage, below the page's summary card (its state, when and
 * where): what its state means, its QR, whose it is, and what can be done.
 */
export function BookingView(props: Props) {
  const { booking } = props;
  const { t, intlLocale } = useI18n();
  const change = useBookingChange(props);
  const files = useTicketFiles(booking);
  const { picking } = change;

  const org = booking.organization;
  const zoneName = org.time_zone;
  const longDate = (date: string) => formatDate(date, intlLocale, LONG_DATE);
  const deadline = instantText(booking.change_deadline, zoneName, intlLocale);
  const state = stateOf(booking);
  const changeable = booking.change_blocked === null;
  const bookAgain =
    state === 'expired' || state === 'failed' || booking.cancelled_by === 'organization';
  // What the state means is said in the summary card above; this card holds what a change
  // brings (it takes the focus then) and the ways on, and is not drawn when it has none.
  const filled =
    Boolean(change.notice) || state === 'pending' || bookAgain || Boolean(booking.rescheduled_from);

  return (
    <div className="booking-view">
      <div
        ref={change.statusRef}
        tabIndex={-1}
        className={
          filled
            ? `ticket-card status-card status-card--${state}`
            : 'status-card status-card--empty'
        }
        data-status={booking.status}
      >
        {change.notice ? <Alert tone="success">{change.notice}</Alert> : null}
        {state === 'pending' ? (
          <a className="btn btn--primary" href={props.slotsHref(booking.service.service_id)}>
            {t('ticketPage.resume')}
          </a>
        ) : null}
        {bookAgain ? (
          <a className="btn btn--secondary" href={props.slotsHref(booking.service.service_id)}>
            {t('ticketPage.bookAgain')}
          </a>
        ) : null}
        {booking.rescheduled_from ? (
          <p className="hint" data-testid="rescheduled-from">
            {t('ticketPage.rescheduledFrom', {
              date: longDate(booking.rescheduled_from.date),
              time: booking.rescheduled_from.time,
            })}
          </p>
        ) : null}
      </div>

      {state === 'confirmed' && booking.ticket ? (
        <TicketQr token={booking.ticket.token} code={booking.ticket.code} />
      ) : null}

      <BookingRows booking={booking} />

      {booking.ticket || (state === 'confirmed' && booking.code) ? (
        <div className="ticket-actions">
          {booking.ticket ? (
            <button
              type="button"
              className="btn btn--primary"
              onClick={files.download}
              disabled={files.downloading}
            >
              {files.downloading ? t('ticketPage.downloading') : t('ticketPage.download')}
            </button>
          ) : null}
          {state === 'confirmed' && booking.code ? (
            <button type="button" className="btn btn--secondary" onClick={files.addToCalendar}>
              {t('ticketPage.addToCalendar')}
            </button>
          ) : null}
        </div>
      ) : null}
      {files.downloadFailed ? <Alert tone="error">{t('ticketPage.downloadFailed')}</Alert> : null}

      {state === 'confirmed' ? (
        <section className="ticket-card manage" aria-label={t('ticketPage.actions')}>
          {changeable ? (
            <>
              <p>{t('ticketPage.deadline', { deadline })}</p>
              <div className="ticket-actions">
                <button
                  type="button"
                  ref={change.rescheduleRef}
                  className="btn btn--secondary"
                  aria-expanded={picking}
                  onClick={change.togglePicker}
                >
                  {t('ticketPage.reschedule')}
                </button>
                <button
                  type="button"
                  className="btn btn--secondary btn--danger-outline"
                  onClick={change.askCancel}
                >
                  {t('ticketPage.cancel')}
                </button>
              </div>
            </>
          ) : booking.change_blocked === 'PAST_CUTOFF' ? (
            <p className="manage__blocked">
              {t('ticketPage.blocked.pastCutoff', {
                duration: durationText(booking.cutoff_minutes, intlLocale),
              })}
            </p>
          ) : null}
        </section>
      ) : null}

      {picking && changeable ? (
        <ReschedulePicker
          booking={booking}
          loadAvailability={props.loadAvailability}
          reloadKey={change.pickerReload}
          error={change.pickerError}
          onPick={change.askReschedule}
          onClose={change.closePicker}
        />
      ) : null}

      <BookingDialogs booking={booking} change={change} />
    </div>
  );
}
