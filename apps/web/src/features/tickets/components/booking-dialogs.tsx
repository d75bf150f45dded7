import type { CustomerBooking } from '@qless/contract';
import { PLATFORM_FEE_XAF } from '@qless/contract/core';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { instantText, serviceName } from '../lib/booking-text';
import { ConfirmDialog } from './confirm-dialog';
import type { BookingChange } from './use-booking-change';

/** The confirmation asked before a booking is cancelled or moved, with its fee and deadline. */
export function BookingDialogs({
  booking,
  change,
}: {
  booking: CustomerBooking;
  change: BookingChange;
}) {
  const { t, locale, intlLocale, money } = useI18n();
  const { dialog } = change;
  if (!dialog) return null;
  const org = booking.organization;
  const fee = money(PLATFORM_FEE_XAF);
  const deadline = instantText(booking.change_deadline, org.time_zone, intlLocale);
  const longDate = (date: string) => formatDate(date, intlLocale, LONG_DATE);
  const when = (date: string, time: string) =>
    t('ticketPage.rescheduleDialog.when', { date: longDate(date), time });

  if (dialog.kind === 'cancel') {
    return (
      <ConfirmDialog
        key="cancel"
        title={t('ticketPage.cancelDialog.title')}
        confirmLabel={t('ticketPage.cancelDialog.confirm')}
        busyLabel={t('ticketPage.cancelling')}
        dismissLabel={t('ticketPage.cancelDialog.keep')}
        destructive
        busy={change.busy}
        error={change.dialogError}
        onConfirm={change.confirmCancel}
        onClose={change.closeDialog}
      >
        <p>
          {t('ticketPage.cancelDialog.what', {
            service: serviceName(booking, locale),
            org: org.name,
            date: longDate(booking.date),
            time: booking.time,
          })}
        </p>
        <p className="confirm-dialog__fee">{t('ticketPage.cancelDialog.fee', { fee })}</p>
        <p className="hint">{t('ticketPage.cancelDialog.deadline', { deadline })}</p>
      </ConfirmDialog>
    );
  }

  return (
    <ConfirmDialog
      key="reschedule"
      title={t('ticketPage.rescheduleDialog.title')}
      confirmLabel={t('ticketPage.rescheduleDialog.confirm')}
      busyLabel={t('ticketPage.rescheduling')}
      dismissLabel={t('ticketPage.rescheduleDialog.back')}
      busy={change.busy}
      error={change.dialogError}
      onConfirm={() => change.confirmReschedule(dialog.date, dialog.slot)}
      onClose={change.closeDialog}
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
  );
}
