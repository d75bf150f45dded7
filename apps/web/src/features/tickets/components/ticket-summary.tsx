import type { CustomerBooking, TicketLookup } from '@qless/contract';
import { localizedText, PLATFORM_FEE_XAF } from '@qless/contract/core';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import type { AsyncState } from '../../../lib/use-async';
import {
  bodyKey,
  errorText,
  instantText,
  placeText,
  serviceName,
  statusKey,
  waitText,
} from '../lib/booking-text';
import { stateOf } from '../lib/device-list';
import { PlaceRow } from './place-row';

interface Props {
  /** The public look-up (rendered on the server from the page's embedded answer). */
  lookup: AsyncState<TicketLookup>;
  /** The booking once a key opened it: the same card, its rows filled from the booking. */
  booking: CustomerBooking | null;
  onRetry: () => void;
}

/**
 * Where, when and whether the ticket stands: the card at the top of the ticket page. The
 * server renders it from the public look-up; a key that opens the booking fills the same
 * card in place (same elements, same rows), so nothing on the first screen moves
 * (decision 112).
 */
export function TicketSummary({ lookup, booking, onRetry }: Props) {
  const { t, locale, intlLocale, zone, money } = useI18n();
  if (booking) {
    const org = booking.organization;
    const state = stateOf(booking);
    const body = bodyKey(booking);
    const holdEnds = booking.payment?.hold_expires_at;
    return (
      <SummaryCard
        state={state}
        chip={t(statusKey(booking))}
        body={
          body
            ? t(body, {
                fee: money(PLATFORM_FEE_XAF),
                org: org.name,
                time: holdEnds ? instantText(holdEnds, org.time_zone, intlLocale) : '',
              })
            : null
        }
        title={t('ticketPage.lookup.title', { code: booking.code ?? '' })}
        service={serviceName(booking, locale)}
        organization={org.name}
        date={formatDate(booking.date, intlLocale, LONG_DATE)}
        time={t('ticketPage.timeRange', { start: booking.time, end: booking.end_time })}
        zone={zone(org.time_zone, new Date(booking.starts_at))}
        place={placeText(org.location, org.city)}
        location={org.location}
        city={org.city}
      />
    );
  }
  if (lookup.status === 'loading') {
    return (
      <div className="ticket-card ticket-summary ticket-summary--waiting">
        <Spinner label={t('ticketPage.lookup.loading')} />
      </div>
    );
  }
  if (lookup.status === 'error') {
    if (lookup.error instanceof ApiError && lookup.error.status === 404) {
      return (
        <p className="ticket-card ticket-lookup__missing" role="status">
          {t('ticketPage.lookup.notFound')}
        </p>
      );
    }
    const text = errorText(lookup.error);
    return (
      <div className="ticket-card" role="alert">
        <p>{t('ticketPage.lookup.failed')}</p>
        <p>{t(text.key, text.wait !== null ? { wait: waitText(text.wait, intlLocale) } : {})}</p>
        <button type="button" className="btn btn--secondary" onClick={onRetry}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const ticket = lookup.data;
  return (
    <SummaryCard
      state={ticket.status}
      chip={
        ticket.status === 'checked_in'
          ? t('ticketPage.lookup.checkedIn')
          : t('ticketPage.lookup.valid')
      }
      body={t(`ticketPage.body.${ticket.status}`)}
      title={t('ticketPage.lookup.title', { code: ticket.code })}
      service={localizedText(ticket.service, ticket.service_fr, locale)}
      organization={ticket.organization}
      date={formatDate(ticket.date, intlLocale, LONG_DATE)}
      time={ticket.time}
      zone={zone(ticket.time_zone, new Date(`${ticket.date}T12:00:00Z`))}
      place={ticket.location}
      location={ticket.location}
      city=""
    />
  );
}

interface CardProps {
  state: string;
  chip: string;
  /**
   * What the state means. The look-up's states say the same as the booking's, so a key that
   * opens the booking leaves this (the card's largest text) as it was painted.
   */
  body: string | null;
  title: string;
  service: string;
  organization: string;
  date: string;
  time: string;
  zone: string;
  place: string;
  location: string;
  city: string;
}

function SummaryCard(props: CardProps) {
  const { t } = useI18n();
  return (
    <section className="ticket-card ticket-summary" aria-label={props.title}>
      <p className={`status-chip status-chip--${props.state}`}>{props.chip}</p>
      {props.body ? <p className="ticket-summary__body">{props.body}</p> : null}
      <dl className="ticket-rows">
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.service')}</dt>
          <dd>{props.service}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.organization')}</dt>
          <dd>{props.organization}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.date')}</dt>
          <dd data-testid="booking-date">{props.date}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.time')}</dt>
          <dd>
            <span data-testid="booking-time">{props.time}</span>
            <span className="ticket-rows__sub">{props.zone}</span>
          </dd>
        </div>
        {props.place ? (
          <PlaceRow place={props.place} location={props.location} city={props.city} />
        ) : null}
      </dl>
    </section>
  );
}
