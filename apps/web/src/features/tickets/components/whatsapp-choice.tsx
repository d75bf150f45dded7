import type { CustomerBooking } from '@qless/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { formatLocalPhone } from '../../../lib/phone-format';
import { setBookingWhatsApp } from '../api/booking-whatsapp';

/**
 * "Send my turn by WhatsApp" on the ticket page (decision 144), where the site sends WhatsApp
 * (the booking says so) and while the booking stands: saved at once, the page then shows the
 * booking as the server answered it.
 */
export function WhatsAppChoice({
  booking,
  accessKey,
  onSaved,
}: {
  booking: CustomerBooking;
  accessKey: string;
  onSaved: (booking: CustomerBooking) => void;
}) {
  const { t } = useI18n();
  // Ticked at once (a slow network would otherwise leave the tap unanswered); put back if
  // the server could not save it.
  const [on, setOn] = useState(booking.whatsapp_opt_in === true);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (booking.whatsapp_opt_in === undefined) return null;

  const change = (next: boolean) => {
    setOn(next);
    setBusy(true);
    setFailed(false);
    setBookingWhatsApp(booking.booking_id, accessKey, next).then(
      (saved) => {
        setBusy(false);
        setOn(saved.whatsapp_opt_in === true);
        onSaved(saved);
      },
      () => {
        setBusy(false);
        setOn(!next);
        setFailed(true);
      },
    );
  };

  return (
    <section className="whatsapp-choice" data-testid="whatsapp-choice">
      <label className="whatsapp-choice__row">
        <input
          type="checkbox"
          checked={on}
          disabled={busy}
          aria-busy={busy}
          onChange={(event) => change(event.target.checked)}
        />
        <span>
          {t('ticketPage.whatsapp', { phone: `+237 ${formatLocalPhone(booking.phone)}` })}
        </span>
      </label>
      {failed ? <Alert tone="error">{t('ticketPage.whatsappFailed')}</Alert> : null}
    </section>
  );
}
