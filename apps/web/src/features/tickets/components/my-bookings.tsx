import type { CustomerBooking } from '@qless/contract';
import { DEFAULT_TIME_ZONE, zonedNow } from '@qless/contract/core';
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { NotifyMe } from '../../../components/notify-me';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import {
  type DeviceBooking,
  readDeviceBookings,
  removeDeviceBooking,
  updateDeviceBooking,
} from '../../../lib/device-bookings';
import { useWhenOnline } from '../../../lib/service-worker';
import { useHydrated } from '../../../lib/use-hydrated';
import { getCustomerBooking } from '../api/get-customer-booking';
import { serviceName } from '../lib/booking-text';
import { type ListedBooking, orderDeviceBookings, stateOf } from '../lib/device-list';
import { linkNoticeKey } from '../lib/link-notice';
import { rememberBooking } from '../lib/remember';
import { forgetTicket, saveTicket } from '../lib/saved-tickets';
import { AccessForm } from './access-form';
import { SavedNotice } from './saved-notice';
import { useFocusOnMount } from './use-focus-on-mount';
import './tickets.css';

interface Props {
  /** The ticket page of a booking, with the key that opens it. */
  ticketHref: (code: string, accessKey: string) => string;
  slotsHref: (serviceId: string) => string;
  organizationsHref: string;
  /** Goes to a ticket page (after the code + digits form opened a booking). */
  openTicket: (code: string) => void;
  /** A checked-in booking's place in today's queue, composed by the route. */
  turn?: (visitId: string, accessKey: string) => ReactNode;
}

const NONE: DeviceBooking[] = [];

/** The bookings made on this device, each refreshed from the server with its key. */
export function MyBookings(props: Props) {
  const { t, locale } = useI18n();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [stored, setEntries] = useState<DeviceBooking[]>(readDeviceBookings);
  // The server cannot know this device's bookings: none while its page hydrates.
  const hydrated = useHydrated();
  const entries = hydrated ? stored : NONE;
  // A short link that opened no ticket sent the browser here, saying why (`?link=`).
  const linkNotice = hydrated ? linkNoticeKey(window.location.search) : null;
  const [fresh, setFresh] = useState<ReadonlyMap<string, CustomerBooking>>(new Map());
  const [stale, setStale] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState(true);
  const [notice, setNotice] = useState<string | null>(null);
  const findId = useId();
  const [round, setRound] = useState(0);
  useFocusOnMount(headingRef);
  // Asked again when the network comes back after a failed round (decision 113).
  const again = useCallback(() => setRound((n) => n + 1), []);
  useWhenOnline(stale.size > 0, again);

  // Once per visit (and once the network is back): each booking is asked for with its key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again per round.
  useEffect(() => {
    const controller = new AbortController();
    const initial = readDeviceBookings();
    if (initial.length === 0) {
      setPending(false);
      return;
    }
    Promise.allSettled(
      initial.map((entry) =>
        getCustomerBooking(entry.booking_id, entry.access_key, controller.signal).then(
          (booking) => {
            updateDeviceBooking(entry.booking_id, {
              state: stateOf(booking),
              code: booking.code,
              date: booking.date,
              time: booking.time,
            });
            saveTicket(booking);
            return booking;
          },
        ),
      ),
    ).then((results) => {
      if (controller.signal.aborted) return;
      const answers = new Map<string, CustomerBooking>();
      const failed = new Set<string>();
      results.forEach((result, i) => {
        const id = initial[i]?.booking_id;
        if (!id) return;
        if (result.status === 'fulfilled') answers.set(id, result.value);
        else failed.add(id);
      });
      setFresh(answers);
      setStale(failed);
      setEntries(readDeviceBookings());
      setPending(false);
    });
    return () => controller.abort();
  }, [round]);

  const now = useMemo(() => new Date(), []);
  const { today, upcoming, past } = useMemo(
    () => orderDeviceBookings(entries, fresh, now),
    [entries, fresh, now],
  );

  const remove = (booking: ListedBooking) => {
    removeDeviceBooking(booking.entry.booking_id);
    forgetTicket(booking.entry.booking_id);
    setEntries(readDeviceBookings());
    setNotice(t('myBookings.removed'));
    headingRef.current?.focus();
  };

  const empty = entries.length === 0;

  return (
    <div className="container page-section page-section--narrow my-bookings">
      <h1 ref={headingRef} tabIndex={-1} className="page-title">
        {t('myBookings.title')}
      </h1>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {linkNotice ? <Alert tone="warning">{t(linkNotice)}</Alert> : null}
      {empty ? (
        <div className="empty-state my-bookings__empty">
          <p>{t('myBookings.empty')}</p>
          <a className="btn btn--primary" href={props.organizationsHref}>
            {t('myBookings.bookNow')}
          </a>
        </div>
      ) : (
        <>
          <p className="page-lead">{t('myBookings.intro')}</p>
          {stale.size > 0 && !pending ? <SavedNotice savedAt={null} /> : null}
          {pending ? (
            <p className="hint" role="status">
              {t('myBookings.refreshing')}
            </p>
          ) : null}
          {today.length ? (
            <BookingGroup
              title={t('myBookings.today')}
              list={today}
              stale={stale}
              locale={locale}
              {...props}
            />
          ) : null}
          {upcoming.length ? (
            <BookingGroup
              title={t('myBookings.upcoming')}
              list={upcoming}
              stale={stale}
              locale={locale}
              {...props}
            />
          ) : null}
          {past.length ? (
            <BookingGroup
              title={t('myBookings.past')}
              list={past}
              stale={stale}
              locale={locale}
              onRemove={remove}
              {...props}
            />
          ) : null}
        </>
      )}
      <div id={findId}>
        <AccessForm
          title={t('myBookings.find.title')}
          intro={t('myBookings.find.intro')}
          onAccess={(result, code) => {
            rememberBooking(result.booking, result.access_key, locale);
            props.openTicket(code);
          }}
        />
      </div>
    </div>
  );
}

function BookingGroup(
  props: Props & {
    title: string;
    list: ListedBooking[];
    stale: ReadonlySet<string>;
    locale: string;
    onRemove?: (booking: ListedBooking) => void;
  },
) {
  const { t, intlLocale } = useI18n();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="my-bookings__group">
      <h2 id={titleId} className="my-bookings__title">
        {props.title}
      </h2>
      <ul className="my-bookings__list">
        {props.list.map((item) => {
          const { entry, fresh, state } = item;
          const service = fresh ? serviceName(fresh, props.locale) : entry.service;
          const organization = fresh?.organization.name ?? entry.organization;
          const date = formatDate(item.date, intlLocale, LONG_DATE);
          const code = fresh?.code ?? entry.code;
          const cancelledKey =
            fresh?.cancelled_by === 'organization'
              ? 'ticketPage.status.cancelledByOrg'
              : fresh?.cancelled_by === 'customer'
                ? 'ticketPage.status.cancelledByYou'
                : 'ticketPage.status.cancelled';
          return (
            <li
              key={entry.booking_id}
              className={`my-booking my-booking--${state}`}
              data-booking-id={entry.booking_id}
              data-state={state}
            >
              <p className="my-booking__service" id={`my-booking-${entry.booking_id}`}>
                {service}
              </p>
              <p className="my-booking__org">{organization}</p>
              <p className="my-booking__when" id={`my-booking-${entry.booking_id}-when`}>
                {t('myBookings.when', { date, time: item.time })}
              </p>
              {fresh?.visit_id && item.date === zonedNow(DEFAULT_TIME_ZONE, new Date()).date
                ? props.turn?.(fresh.visit_id, entry.access_key)
                : null}
              <p className={`status-chip status-chip--${state}`}>
                {state === 'cancelled' ? t(cancelledKey) : t(`ticketPage.status.${state}`)}
              </p>
              {props.stale.has(entry.booking_id) ? (
                <p className="hint">{t('myBookings.stale')}</p>
              ) : null}
              <div className="my-booking__actions">
                {state === 'pending' ? (
                  <>
                    <p className="my-booking__note">{t('myBookings.pending')}</p>
                    <a className="btn btn--primary" href={props.slotsHref(entry.service_id)}>
                      {t('myBookings.resume')}
                    </a>
                  </>
                ) : code ? (
                  <a
                    className="btn btn--primary"
                    href={props.ticketHref(code, entry.access_key)}
                    aria-label={t('myBookings.openLabel', { service, date })}
                  >
                    {t('myBookings.openTicket')}
                  </a>
                ) : (
                  <p className="hint">{t('myBookings.noCode')}</p>
                )}
                {props.onRemove ? (
                  <button
                    type="button"
                    className="btn btn--secondary"
                    aria-label={t('myBookings.removeLabel', { service, date })}
                    onClick={() => props.onRemove?.(item)}
                  >
                    {t('myBookings.remove')}
                  </button>
                ) : null}
              </div>
              {/* Its turn by a free notification on this phone (decision 142), while it stands. */}
              {fresh && !props.onRemove && (state === 'confirmed' || state === 'checked_in') ? (
                <NotifyMe
                  about={{ booking: entry.booking_id }}
                  accessKey={entry.access_key}
                  compact
                  describedBy={`my-booking-${entry.booking_id} my-booking-${entry.booking_id}-when`}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
