import { useEffect } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { DAY_AND_MONTH, formatDate } from '../../../lib/dates';
import { getPaymentStatus } from '../api/get-payment-status';
import { clearResumeMarker, RESUME_REQUEST_EVENT, recordStatus } from '../lib/resume';
import { useResumableBooking } from '../lib/use-resumable-booking';
import './resume-banner.css';

interface Props {
  /** The current in-app path: a navigation re-checks a pending payment. */
  location: string;
  /** Hrefs and paths the app owns. */
  slotsPath: (serviceId: string) => string;
  ticketPath: (code: string, accessKey: string) => string;
  href: (path: string) => string;
}

/**
 * "Payment in progress" / "View your ticket": a payment started or just paid on this device,
 * left before its end (Back, a closed modal, a reload elsewhere), is one tap away on every page.
 */
export function ResumeBanner({ location, slotsPath, ticketPath, href }: Props) {
  const { t, intlLocale } = useI18n();
  const entry = useResumableBooking();
  const pendingId = entry?.state === 'pending' ? entry.payment_id : null;
  const bookingId = entry?.booking_id ?? null;

  // A payment may have settled while the page was closed: ask once per page visited.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-checks on navigation.
  useEffect(() => {
    if (!pendingId || !bookingId) return;
    const controller = new AbortController();
    getPaymentStatus(pendingId, controller.signal)
      .then((message) => recordStatus(bookingId, message))
      .catch(() => {
        // Offline: the banner keeps saying "in progress"; the next page asks again.
      });
    return () => controller.abort();
  }, [pendingId, bookingId, location]);

  const paidCode = entry?.state === 'confirmed' ? entry.code : null;
  const onItsTicket =
    paidCode !== null && location.startsWith(`/ticket/${encodeURIComponent(paidCode)}`);
  // Reaching the ticket's page is what the banner was for.
  useEffect(() => {
    if (onItsTicket && bookingId) clearResumeMarker(bookingId);
  }, [onItsTicket, bookingId]);

  if (!entry || onItsTicket) return null;
  const summary = t('resume.summary', {
    service: entry.service,
    date: formatDate(entry.date, intlLocale, DAY_AND_MONTH),
    time: entry.time,
  });

  if (paidCode) {
    return (
      <aside className="resume-banner resume-banner--paid" aria-label={t('resume.label')}>
        <div className="container resume-banner__bar">
          <p className="resume-banner__text">
            <strong>{t('resume.paid')}</strong> <span>{summary}</span>
          </p>
          <a
            className="resume-banner__link"
            href={href(ticketPath(paidCode, entry.access_key))}
            onClick={() => clearResumeMarker(entry.booking_id)}
          >
            {t('resume.viewTicket')}
          </a>
        </div>
      </aside>
    );
  }

  const target = slotsPath(entry.service_id);
  return (
    <aside className="resume-banner" aria-label={t('resume.label')}>
      <div className="container resume-banner__bar">
        <p className="resume-banner__text">
          <strong>{t('resume.pending')}</strong> <span>{summary}</span>
        </p>
        <a
          className="resume-banner__link"
          href={href(target)}
          onClick={(event) => {
            // Already on that page: ask it to reopen the payment (the hash would not change).
            if (location === target) {
              event.preventDefault();
              dispatchEvent(new Event(RESUME_REQUEST_EVENT));
            }
          }}
        >
          {t('resume.open')}
        </a>
      </div>
    </aside>
  );
}
