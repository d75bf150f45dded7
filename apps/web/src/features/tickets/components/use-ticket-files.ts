import type { CustomerBooking } from '@qless/contract';
import { ticketPageUrl } from '@qless/contract/core';
import { useState } from 'react';
import { PRODUCT_NAME } from '../../../config';
import { useI18n } from '../../../i18n/i18n';
import { placeText, serviceName } from '../lib/booking-text';
import { buildIcs, icsFileName } from '../lib/calendar-ics';
import { downloadTicket } from '../lib/download-ticket';

/** What a booking gives to keep: the ticket's PDF, and an entry for the calendar. */
export function useTicketFiles(booking: CustomerBooking) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);

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
    const org = booking.organization;
    const url = ticketPageUrl(location.origin, booking.code, {});
    const text = buildIcs({
      uid: `${booking.booking_id}@${location.host}`,
      stamp: new Date(),
      startsAt: booking.starts_at,
      endsAt: booking.ends_at,
      summary: t('ticketPage.calendar.summary', {
        service: serviceName(booking, locale),
        org: org.name,
      }),
      location: `${org.name}, ${placeText(org.location, org.city)}`,
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

  return { downloading, downloadFailed, download, addToCalendar };
}
