import type { Ticket } from '@qless/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'wouter';
import { LoadError } from '../../components/ui/load-error';
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
import { WeekView } from '../../features/slots/components/week-view';
import { sortSlots } from '../../features/slots/lib/availability';
import { downloadTicket } from '../../features/tickets/lib/download-ticket';
import { WaitlistForm } from '../../features/waitlist/components/waitlist-form';
import { readOfferQuery } from '../../features/waitlist/lib/offer-link';
import { useI18n } from '../../i18n/i18n';
import { DAY_AND_MONTH, formatDate } from '../../lib/dates';
import { isNotFound } from '../../lib/load-errors';
import { placeLabel } from '../../lib/place-label';
import { serviceDescription, serviceName } from '../../lib/service-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { href, paths } from '../paths';
import { readSlotsState } from './nav-state';
import { NotFound } from './not-found';

const bookingLinks = {
  ticket: (code: string, accessKey: string) => href(paths.ticket.build(code, { k: accessKey })),
  myBookings: href(paths.myBookings.build()),
};

export default function SlotsRoute() {
  const { serviceId = '' } = useParams<{ serviceId: string }>();
  const i18n = useI18n();
  const { t, locale, zone, intlLocale } = i18n;
  const [navState] = useState(readSlotsState);
  const [detailKey, setDetailKey] = useState(0);
  const detail = useService(serviceId, navState, detailKey);
  const [reloadKey, setReloadKey] = useState(0);
  const slots = useSlots(serviceId, reloadKey);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Whether the week view's slots and taken seats are in, and a count of the times they were.
  const [list, setList] = useState({ settled: false, version: 0 });
  const onSettled = useCallback(
    (settled: boolean) =>
      setList((l) =>
        l.settled === settled ? l : { settled, version: settled ? l.version + 1 : l.version },
      ),
    [],
  );
  useDocumentTitle('slots.title');

  const organization = detail.data?.organization;
  const service = detail.data?.service;
  // The modal and the ticket show the service as the reader reads it (French when it has one).
  const shownService = useMemo(
    () =>
      service && {
        ...service,
        service_name: serviceName(service, locale),
        service_description: serviceDescription(service, locale),
      },
    [service, locale],
  );
  const sorted = useMemo(() => sortSlots(slots.data?.slots ?? []), [slots.data]);

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
    listSettled: list.settled,
    listVersion: list.version,
    reload: () => setReloadKey((k) => k + 1),
    fallbackFocus: headingRef,
  });
  const chosen = booking.chosen;

  // A full day offers its waitlist instead of its slots.
  const fullDay = useCallback(
    (date: string) => (
      <WaitlistForm
        key={date}
        serviceId={serviceId}
        date={date}
        dateLabel={formatDate(date, intlLocale, DAY_AND_MONTH)}
        onNotFull={() => setReloadKey((k) => k + 1)}
      />
    ),
    [serviceId, intlLocale],
  );

  // The link of a waitlist offer (`?date=…&slot=…`) opens the booking modal on that slot,
  // once, after hydration; the address then drops the query so a reload does not reopen it.
  const hydrated = useHydrated();
  const linkOpened = useRef(false);
  const choose = booking.choose;
  useEffect(() => {
    if (linkOpened.current || !hydrated || sorted.length === 0 || !detail.data) return;
    linkOpened.current = true;
    const offer = readOfferQuery(location.search, location.hash);
    const slot = offer && sorted.find((s) => s.id === offer.slot);
    if (!offer || !slot) return;
    choose(slot, offer.date, offer.phone ? { phone: offer.phone } : null);
    history.replaceState(history.state, '', location.pathname);
  }, [hydrated, sorted, detail.data, choose]);

  if (detail.status === 'loading') {
    return (
      <div className="container page-section">
        <Spinner label={t('slots.loading')} />
      </div>
    );
  }
  if (isNotFound(detail.error)) return <NotFound what="service" />;
  if (!organization || !service || !shownService) {
    return (
      <div className="container page-section">
        <h1 className="page-title">{t('slots.title')}</h1>
        <LoadError
          message={t('slots.loadFailed')}
          retryLabel={t('common.retry')}
          onRetry={() => setDetailKey((k) => k + 1)}
        />
      </div>
    );
  }

  const place = placeLabel(organization);
  const onDownload = (ticket: Ticket) =>
    downloadTicket(ticket, i18n, { origin: location.origin, productName: PRODUCT_NAME });

  return (
    <div className="container page-section">
      <nav className="breadcrumb" aria-label={t('nav.breadcrumb')}>
        <a href={href(paths.organizations.build())}>{t('services.back')}</a>
        <span aria-hidden="true"> › </span>
        <a href={href(paths.services.build(organization.organization_id))}>{place}</a>
      </nav>
      <h1 className="page-title" ref={headingRef} tabIndex={-1}>
        {t('slots.title')}
      </h1>
      <p className="page-lead">
        <strong>{shownService.service_name}</strong> · {place}
        {organization.location ? ` · ${organization.location}` : ''}
      </p>
      <p className="hint">
        {t('slots.timeZoneNote', { org: place, zone: zone(organization.time_zone) })}
      </p>
      <WeekView
        service={service}
        timeZone={organization.time_zone}
        slots={slots}
        onRetrySlots={() => setReloadKey((k) => k + 1)}
        reloadKey={reloadKey}
        onSelect={booking.choose}
        onSettled={onSettled}
        fullDay={fullDay}
      />
      {chosen ? (
        <BookingModal
          organization={organization}
          service={shownService}
          slot={chosen.slot}
          date={chosen.date}
          resume={chosen.resume}
          prefill={chosen.prefill ?? null}
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
