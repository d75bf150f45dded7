import { localizedText } from '@qless/contract/core';
import { useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { useAsync } from '../../../lib/use-async';
import { lookupTicket } from '../api/lookup-ticket';
import { errorText, waitText } from '../lib/booking-text';
import { PlaceRow } from './place-row';

/**
 * What anyone holding the code may see (a QR scanned, a code typed): where, when and
 * whether the ticket stands. Nothing personal.
 */
export function TicketLookup({ code }: { code: string }) {
  const { t, locale, intlLocale, zone } = useI18n();
  const [attempt, setAttempt] = useState(0);
  const state = useAsync((signal) => lookupTicket(code, signal), [code, attempt]);

  if (state.status === 'loading') return <Spinner label={t('ticketPage.lookup.loading')} />;
  if (state.status === 'error') {
    const missing = state.error instanceof ApiError && state.error.status === 404;
    if (missing) {
      return (
        <p className="ticket-card ticket-lookup__missing" role="status">
          {t('ticketPage.lookup.notFound')}
        </p>
      );
    }
    const text = errorText(state.error);
    return (
      <div className="ticket-card" role="alert">
        <p>{t('ticketPage.lookup.failed')}</p>
        <p>{t(text.key, text.wait !== null ? { wait: waitText(text.wait, intlLocale) } : {})}</p>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => setAttempt((n) => n + 1)}
        >
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const ticket = state.data;
  const at = new Date(`${ticket.date}T12:00:00Z`);
  return (
    <section
      className="ticket-card"
      aria-label={t('ticketPage.lookup.title', { code: ticket.code })}
    >
      <p className={`status-chip status-chip--${ticket.status}`}>
        {ticket.status === 'checked_in'
          ? t('ticketPage.lookup.checkedIn')
          : t('ticketPage.lookup.valid')}
      </p>
      <dl className="ticket-rows">
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.service')}</dt>
          <dd>{localizedText(ticket.service, ticket.service_fr, locale)}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.organization')}</dt>
          <dd>{ticket.organization}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.date')}</dt>
          <dd>{formatDate(ticket.date, intlLocale, LONG_DATE)}</dd>
        </div>
        <div className="ticket-rows__row">
          <dt>{t('ticketPage.row.time')}</dt>
          <dd>
            {ticket.time}
            <span className="ticket-rows__sub">{zone(ticket.time_zone, at)}</span>
          </dd>
        </div>
        {ticket.location ? (
          <PlaceRow place={ticket.location} location={ticket.location} city="" />
        ) : null}
      </dl>
    </section>
  );
}
