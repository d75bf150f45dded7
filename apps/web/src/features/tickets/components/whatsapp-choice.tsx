import type { CustomerBooking } from '@qless/contract';
import { useEffect, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
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
  onStale,
}: {
  booking: CustomerBooking;
  accessKey: string;
  onSaved: (booking: CustomerBooking) => void;
  /** The server refused it (the booking changed meanwhile): the page reads it again. */
  onStale: () => void;
}) {
  const { t } = useI18n();
  // The value chosen, shown from the tap on (a slow network would otherwise leave it
  // unanswered) until the booking itself says otherwise (saved, or refreshed from elsewhere).
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const stored = booking.whatsapp_opt_in;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the booking's value changes.
  useEffect(() => setChosen(null), [stored]);
  if (stored === undefined) return null;
  const on = chosen ?? stored;

  const change = (next: boolean) => {
    if (saving) return;
    setChosen(next);
    setSaving(true);
    setFailed(false);
    setBookingWhatsApp(booking.booking_id, accessKey, next).then(
      (saved) => {
        setSaving(false);
        setChosen(saved.whatsapp_opt_in ?? null);
        onSaved(saved);
      },
      (error: unknown) => {
        setSaving(false);
        setChosen(null);
        if (error instanceof ApiError && (error.status === 403 || error.status === 409)) {
          onStale();
        } else {
          setFailed(true);
        }
      },
    );
  };

  return (
    <section className="whatsapp-choice" data-testid="whatsapp-choice" aria-busy={saving}>
      <label className="whatsapp-choice__row">
        {/* Not disabled while saving: the control keeps the keyboard's focus. */}
        <input
          type="checkbox"
          checked={on}
          aria-disabled={saving}
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
