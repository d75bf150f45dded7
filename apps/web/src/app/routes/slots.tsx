import type { Slot, Ticket } from '@qless/contract';
import { useEffect, useMemo, useState } from 'react';
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
import { useService } from '../../features/slots/api/get-service';
import { useSlots } from '../../features/slots/api/get-slots';
import { WeekView } from '../../features/slots/components/week-view';
import { downloadTicket } from '../../features/tickets/lib/download-ticket';
import { useI18n } from '../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../lib/dates';
import { isNotFound } from '../../lib/load-errors';
import { serviceDescription, serviceName } from '../../lib/service-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';
import { readSlotsState } from './nav-state';
import { NotFound } from './not-found';

export default function SlotsRoute() {
  const { serviceId = '' } = useParams<{ serviceId: string }>();
  const { t, intlLocale, locale, zone } = useI18n();
  const [navState] = useState(readSlotsState);
  const [detailKey, setDetailKey] = useState(0);
  const detail = useService(serviceId, navState, detailKey);
  const [reloadKey, setReloadKey] = useState(0);
  const [chosen, setChosen] = useState<{ slot: Slot; date: string } | null>(null);
  const slots = useSlots(serviceId, reloadKey);
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

  const onDownload = (ticket: Ticket) =>
    downloadTicket(
      ticket,
      {
        title: t('ticket.title'),
        organization: t('booking.row.organization'),
        location: t('booking.row.location'),
        service: t('booking.row.service'),
        date: t('booking.row.date'),
        time: t('booking.row.time'),
        username: t('booking.row.username'),
        email: t('booking.row.email'),
        phone: t('booking.row.phone'),
        code: t('booking.row.code'),
        arrive: t('ticket.arrive'),
        formattedDate: formatDate(ticket.date, intlLocale, LONG_DATE),
      },
      PRODUCT_NAME,
    );

  return (
    <div className="container page-section">
      <nav className="breadcrumb" aria-label={t('nav.breadcrumb')}>
        <a href={href(paths.organizations.build())}>{t('services.back')}</a>
        <span aria-hidden="true"> › </span>
        <a href={href(paths.services.build(organization.organization_id))}>{organization.name}</a>
      </nav>
      <h1 className="page-title">{t('slots.title')}</h1>
      <p className="page-lead">
        <strong>{shownService.service_name}</strong> · {organization.name}
        {organization.location ? ` · ${organization.location}` : ''}
      </p>
      <p className="hint">
        {t('slots.timeZoneNote', { org: organization.name, zone: zone(organization.time_zone) })}
      </p>
      <WeekView
        service={service}
        timeZone={organization.time_zone}
        slots={slots}
        onRetrySlots={() => setReloadKey((k) => k + 1)}
        reloadKey={reloadKey}
        onSelect={(slot, date) => setChosen({ slot, date })}
      />
      {chosen ? (
        <BookingModal
          organization={organization}
          service={shownService}
          slot={chosen.slot}
          date={chosen.date}
          onClose={() => setChosen(null)}
          onPaid={() => setReloadKey((k) => k + 1)}
          onDownloadTicket={onDownload}
        />
      ) : null}
    </div>
  );
}
