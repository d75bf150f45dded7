import type { Ticket } from '@qless/contract';
import { DEFAULT_TIME_ZONE, zonedNow } from '@qless/contract/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'wouter';
import { Spinner } from '../../components/ui/spinner';
import { PRODUCT_NAME } from '../../config';
import { BookingModal } from '../../features/payments/components/booking-modal';
import {
  PAYMENT_STATUS_KEY,
  readStorage,
  removeStorage,
} from '../../features/payments/lib/storage';
import { useSlotBooking } from '../../features/payments/lib/use-slot-booking';
import { useService } from '../../features/slots/api/get-service';
import { useSlots } from '../../features/slots/api/get-slots';
import { useTakenSlots } from '../../features/slots/api/get-taken-slots';
import { WeekView } from '../../features/slots/components/week-view';
import { isClosedDay, sortSlots, takenSet } from '../../features/slots/lib/availability';
import { buildWeek } from '../../features/slots/lib/week';
import { downloadTicket } from '../../features/tickets/lib/download-ticket';
import { useI18n } from '../../i18n/i18n';
import { ApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';
import { readSlotsState } from './nav-state';

const bookingLinks = {
  ticket: (code: string, accessKey: string) => href(paths.ticket.build(code, { k: accessKey })),
  myBookings: href(paths.myBookings.build()),
};

const MINUTE = 60_000;

/** "Now", refreshed every minute so slots grey out as time passes. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), MINUTE);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export default function SlotsRoute() {
  const { serviceId = '' } = useParams<{ serviceId: string }>();
  const i18n = useI18n();
  const { t } = i18n;
  const [navState] = useState(readSlotsState);
  const detail = useService(serviceId, navState);
  const [reloadKey, setReloadKey] = useState(0);
  const [offset, setOffset] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const now = useNow();
  useDocumentTitle('slots.title');

  const organization = detail.data?.organization;
  const service = detail.data?.service;
  const timeZone = organization?.time_zone ?? DEFAULT_TIME_ZONE;
  const today = zonedNow(timeZone, now).date;
  const week = useMemo(() => buildWeek(today, offset), [today, offset]);
  const start = week[0]?.date ?? today;
  const end = week[6]?.date ?? today;
  const slots = useSlots(serviceId, reloadKey);
  const taken = useTakenSlots(serviceId, start, end, reloadKey);
  const takenKeys = useMemo(() => takenSet(taken.data ?? []), [taken.data]);
  const sorted = useMemo(() => sortSlots(slots.data?.slots ?? []), [slots.data]);
  const closed = useMemo(
    () =>
      new Set(
        slots.data
          ? week
              .filter((d) => isClosedDay(d.date, slots.data.open_days, slots.data.closures))
              .map((d) => d.date)
          : [],
      ),
    [week, slots.data],
  );

  // Spec 4: the list reloads when paymentStatus changes, here or in another tab, and the
  // reload after a success clears the stored status.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === PAYMENT_STATUS_KEY && event.newValue === 'SUCCESSFUL') {
        setReloadKey((k) => k + 1);
      }
    };
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }, []);
  useEffect(() => {
    if (reloadKey > 0 && readStorage(PAYMENT_STATUS_KEY) === 'SUCCESSFUL') {
      removeStorage(PAYMENT_STATUS_KEY);
    }
  }, [reloadKey]);

  const booking = useSlotBooking({
    serviceId,
    slots: slots.data && detail.data ? sorted : undefined,
    listSettled: slots.status !== 'loading' && taken.status !== 'loading',
    listVersion: taken.data,
    reload: () => setReloadKey((k) => k + 1),
    fallbackFocus: headingRef,
  });
  const chosen = booking.chosen;

  if (detail.status === 'loading') {
    return (
      <div className="container page-section">
        <Spinner label={t('slots.loading')} />
      </div>
    );
  }
  if (!organization || !service) {
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <div className="container page-section">
        <h1 className="page-title">{t('slots.title')}</h1>
        <p className="empty-state" role="alert">
          {notFound ? t('slots.notFound') : t('slots.loadFailed')}
        </p>
        <a className="btn btn--secondary" href={href(paths.organizations.build())}>
          {t('services.back')}
        </a>
      </div>
    );
  }

  const onDownload = (ticket: Ticket) =>
    downloadTicket(ticket, i18n, { origin: location.origin, productName: PRODUCT_NAME });

  return (
    <div className="container page-section">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <a href={href(paths.services.build(organization.organization_id))}>{organization.name}</a>
      </nav>
      <h1 className="page-title" ref={headingRef} tabIndex={-1}>
        {t('slots.title')}
      </h1>
      <p className="page-lead">
        <strong>{service.service_name}</strong> · {organization.name}
        {organization.location ? ` · ${organization.location}` : ''}
      </p>
      <p className="hint">{t('slots.timeZoneNote', { org: organization.name, zone: timeZone })}</p>
      <WeekView
        week={week}
        slots={sorted}
        taken={takenKeys}
        closed={closed}
        timeZone={timeZone}
        now={now}
        // Until the week's taken slots arrive, a slot cannot be shown as free.
        loading={slots.status === 'loading' || taken.status === 'loading'}
        canGoBack={offset > 0}
        onPrevious={() => setOffset((o) => Math.max(0, o - 1))}
        onNext={() => setOffset((o) => o + 1)}
        onChoose={booking.choose}
      />
      <ul className="legend" aria-hidden="true">
        <li>
          <span className="slot slot--free legend__swatch" /> {t('slots.legendFree')}
        </li>
        <li>
          <span className="slot slot--past legend__swatch" /> {t('slots.legendOff')}
        </li>
      </ul>
      {chosen ? (
        <BookingModal
          organization={organization}
          service={service}
          slot={chosen.slot}
          date={chosen.date}
          resume={chosen.resume}
          onClose={booking.close}
          onPaid={booking.changed}
          onReleased={booking.changed}
          onDownloadTicket={onDownload}
          links={bookingLinks}
        />
      ) : null}
    </div>
  );
}
