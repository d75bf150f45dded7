import type { CustomerBooking } from '@qless/contract';
import { PLATFORM_FEE_XAF, ticketPageUrl } from '@qless/contract/core';
import { useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { PRODUCT_NAME } from '../../../config';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { cancelBooking } from '../api/cancel-booking';
import { rescheduleBooking } from '../api/reschedule-booking';
import {
  durationText,
  errorText,
  instantText,
  placeText,
  serviceName,
  waitText,
} from '../lib/booking-text';
import { buildIcs, icsFileName } from '../lib/calendar-ics';
import { stateOf } from '../lib/device-list';
import { downloadTicket } from '../lib/download-ticket';
import type { PickerSlot } from '../lib/reschedule-days';
import { ConfirmDialog } from './confirm-dialog';
import { PlaceRow } from './place-row';
import { type LoadAvailability, ReschedulePicker } from './reschedule-picker';
import { TicketQr } from './ticket-qr';

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

type Dialog = { kind: 'cancel' } | { kind: 'reschedule'; date: string; slot: PickerSlot } | null;

/** Codes after which the page reads the booking again: it changed under the customer. */
const STALE_CODES = new Set<string>(['CHANGE_PAST_CUTOFF', 'BOOKING_NOT_CHANGEABLE']);
/** Codes that say "choose another time". */
const PICK_AGAIN_CODES = new Set<string>([
  'SLOT_TAKEN',
  'SAME_SLOT',
  'SLOT_IN_PAST',
  'DAY_CLOSED',
  'DATE_OUT_OF_HORIZON',
]);

function statusKey(booking: CustomerBooking): MessageKey {
  const state = stateOf(booking);
  if (state === 'cancelled') {
    if (booking.cancelled_by === 'customer') return 'ticketPage.status.cancelledByYou';
    if (booking.cancelled_by === 'organization') return 'ticketPage.status.cancelledByOrg';
    return 'ticketPage.status.cancelled';
  }
  return `ticketPage.status.${state}`;
}

function bodyKey(booking: CustomerBooking): MessageKey | null {
  const state = stateOf(booking);
  if (state === 'cancelled') {
    if (booking.cancelled_by === 'customer') return 'ticketPage.body.cancelledByYou';
    if (booking.cancelled_by === 'organization') return 'ticketPage.body.cancelledByOrg';
    return null;
  }
  return `ticketPage.body.${state}`;
}

/** A booking the customer may manage: its state, when and where, and what can be done. */
export function BookingView(props: Props) {
  const { booking } = props;
  const i18n = useI18n();
  const { t, locale, intlLocale, money, zone } = i18n;
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [pickerReload, setPickerReload] = useState(0);
  const [pickerError, setPickerError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const statusRef = useRef<HTMLDivElement>(null);
  const rescheduleRef = useRef<HTMLButtonElement>(null);

  const org = booking.organization;
  const zoneName = org.time_zone;
  const service = serviceName(booking, locale);
  const longDate = (date: string) => formatDate(date, intlLocale, LONG_DATE);
  const deadline = instantText(booking.change_deadline, zoneName, intlLocale);
  const fee = money(PLATFORM_FEE_XAF);
  const state = stateOf(booking);
  const changeable = booking.change_blocked === null;
  const body = bodyKey(booking);
  const place = placeText(org.location, org.city);
  const when = (date: string, time: string) =>
    t('ticketPage.rescheduleDialog.when', { date: longDate(date), time });

  const messageOf = (error: unknown) => {
    const text = errorText(error);
    return t(text.key, text.wait !== null ? { wait: waitText(text.wait, intlLocale) } : {});
  };

  const settled = (next: CustomerBooking, message: string) => {
    setDialog(null);
    setPicking(false);
    setNotice(message);
    props.onChanged(next);
    // The button that opened the dialog may be gone: the reader lands on the new state.
    requestAnimationFrame(() => statusRef.current?.focus());
  };

  const refused = (error: unknown) => {
    const code = error instanceof ApiError ? error.code : null;
    if (code && PICK_AGAIN_CODES.has(code)) {
      // That time cannot be had: back to the picker, loaded again, with the reason.
      setDialog(null);
      setPickerError(messageOf(error));
      setPickerReload((n) => n + 1);
      return;
    }
    setDialogError(messageOf(error));
    if (code && STALE_CODES.has(code)) props.onRefresh();
  };

  const confirmCancel = async () => {
    setBusy(true);
    setDialogError(null);
    try {
      const next = await cancelBooking(booking.booking_id, props.accessKey);
      settled(next, t('ticketPage.cancelled'));
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  };

  const confirmReschedule = async (date: string, slot: PickerSlot) => {
    setBusy(true);
    setDialogError(null);
    try {
      const next = await rescheduleBooking(booking.booking_id, props.accessKey, {
        slot_id: slot.id,
        date,
      });
      settled(next, t('ticketPage.rescheduled', { date: longDate(next.date), time: next.time }));
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    if (!booking.ticket || downloading) return;
    setDownloading(true);
    setDownloadFailed(false);
    const ticket = booking.ticket;
    try {
      await downloadTicket(ticket, i18n, { origin: location.origin, productName: PRODUCT_NAME });
    } catch {
      setDownloadFailed(true);
    } finally {
      setDownloading(false);
    }
  };

  const addToCalendar = () => {
    if (!booking.code) return;
    const url = ticketPageUrl(location.origin, booking.code, {});
    const text = buildIcs({
      uid: `${booking.booking_id}@${location.host}`,
      stamp: new Date(),
      startsAt: booking.starts_at,
      endsAt: booking.ends_at,
      summary: t('ticketPage.calendar.summary', { service, org: org.name }),
      location: `${org.name}, ${place}`,
      description: t('ticketPage.calendar.description', { code: booking.code, url }),
      url,
    });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/calendar;charset=utf-8' }));
    link.download = icsFileName(PRODUCT_NAME, booking.code);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };

  const startAt = new Date(booking.starts_at);

  return (
    <div className="booking-view">
      <div
        ref={statusRef}
        tabIndex={-1}
        className={`ticket-card status-card status-card--${state}`}
        data-status={booking.status}
      >
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        <p className={`status-chip status-chip--${state}`}>{t(statusKey(booking))}</p>
        {body ? (
          <p>
            {t(body, {
              fee,
              org: org.name,
              time: booking.payment?.hold_expires_at
                ? instantText(booking.payment.hold_expires_at, zoneName, intlLocale)
                : '',
            })}
          </p>
        ) : null}
        {state === 'pending' ? (
          <a className="btn btn--primary" href={props.slotsHref(booking.service.service_id)}>
            {t('ticketPage.resume')}
          </a>
        ) : null}
        {state === 'expired' || state === 'failed' || booking.cancelled_by === 'organization' ? (
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

      <dl className="ticket-rows ticket-card">
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.service')}</dt>
          <dd>{service}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.organization')}</dt>
          <dd>{org.name}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.date')}</dt>
          <dd data-testid="booking-date">{longDate(booking.date)}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.time')}</dt>
          <dd>
            <span data-testid="booking-time">
              {t('ticketPage.timeRange', { start: booking.time, end: booking.end_time })}
            </span>
            <span className="ticket-rows__sub">{zone(zoneName, startAt)}</span>
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

      {booking.ticket || (state === 'confirmed' && booking.code) ? (
        <div className="ticket-actions">
          {booking.ticket ? (
            <button
              type="button"
              className="btn btn--primary"
              onClick={download}
              disabled={downloading}
            >
              {downloading ? t('ticketPage.downloading') : t('ticketPage.download')}
            </button>
          ) : null}
          {state === 'confirmed' && booking.code ? (
            <button type="button" className="btn btn--secondary" onClick={addToCalendar}>
              {t('ticketPage.addToCalendar')}
            </button>
          ) : null}
        </div>
      ) : null}
      {downloadFailed ? <Alert tone="error">{t('ticketPage.downloadFailed')}</Alert> : null}

      {state === 'confirmed' ? (
        <section className="ticket-card manage" aria-label={t('ticketPage.actions')}>
          {changeable ? (
            <>
              <p>{t('ticketPage.deadline', { deadline })}</p>
              <div className="ticket-actions">
                <button
                  type="button"
                  ref={rescheduleRef}
                  className="btn btn--secondary"
                  aria-expanded={picking}
                  onClick={() => {
                    setNotice(null);
                    setPickerError(null);
                    setPicking((p) => !p);
                  }}
                >
                  {t('ticketPage.reschedule')}
                </button>
                <button
                  type="button"
                  className="btn btn--secondary btn--danger-outline"
                  onClick={() => {
                    setNotice(null);
                    setDialogError(null);
                    setDialog({ kind: 'cancel' });
                  }}
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
          reloadKey={pickerReload}
          error={pickerError}
          onPick={(date, slot) => {
            setDialogError(null);
            setPickerError(null);
            setDialog({ kind: 'reschedule', date, slot });
          }}
          onClose={() => {
            setPicking(false);
            requestAnimationFrame(() => rescheduleRef.current?.focus());
          }}
        />
      ) : null}

      {dialog?.kind === 'cancel' ? (
        <ConfirmDialog
          title={t('ticketPage.cancelDialog.title')}
          confirmLabel={t('ticketPage.cancelDialog.confirm')}
          busyLabel={t('ticketPage.cancelling')}
          dismissLabel={t('ticketPage.cancelDialog.keep')}
          destructive
          busy={busy}
          error={dialogError}
          onConfirm={confirmCancel}
          onClose={() => setDialog(null)}
        >
          <p>
            {t('ticketPage.cancelDialog.what', {
              service,
              org: org.name,
              date: longDate(booking.date),
              time: booking.time,
            })}
          </p>
          <p className="confirm-dialog__fee">{t('ticketPage.cancelDialog.fee', { fee })}</p>
          <p className="hint">{t('ticketPage.cancelDialog.deadline', { deadline })}</p>
        </ConfirmDialog>
      ) : null}

      {dialog?.kind === 'reschedule' ? (
        <ConfirmDialog
          title={t('ticketPage.rescheduleDialog.title')}
          confirmLabel={t('ticketPage.rescheduleDialog.confirm')}
          busyLabel={t('ticketPage.rescheduling')}
          dismissLabel={t('ticketPage.rescheduleDialog.back')}
          busy={busy}
          error={dialogError}
          onConfirm={() => confirmReschedule(dialog.date, dialog.slot)}
          onClose={() => setDialog(null)}
        >
          <dl className="ticket-rows">
            <div className="ticket-rows__row">
              <dt>{t('ticketPage.rescheduleDialog.from')}</dt>
              <dd>{when(booking.date, booking.time)}</dd>
            </div>
            <div className="ticket-rows__row">
              <dt>{t('ticketPage.rescheduleDialog.to')}</dt>
              <dd>{when(dialog.date, dialog.slot.time)}</dd>
            </div>
          </dl>
          <p className="confirm-dialog__fee">{t('ticketPage.rescheduleDialog.fee', { fee })}</p>
          <p className="hint">{t('ticketPage.rescheduleDialog.deadline', { deadline })}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
