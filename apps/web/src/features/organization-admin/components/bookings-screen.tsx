import type { AdminBooking } from '@qless/contract';
import { localizedServiceName } from '@qless/contract/core';
import { useState } from 'react';
import { Field } from '../../../components/form/field';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { errorCodeKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { type BookingFilters, getBookings } from '../api/get-bookings';
import {
  attentionReason,
  BOOKING_STATUSES,
  CANCELLED_BY_KEYS,
  pluralOf,
  STATUS_KEYS,
} from '../lib/labels';

const DATE = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } as const;

function statusTone(status: AdminBooking['status']): string {
  if (status === 'confirmed' || status === 'checked_in') return 'badge badge--good';
  if (status === 'held') return 'badge badge--warn';
  return 'badge badge--off';
}

/**
 * Bookings: Client, Day/Time, Service, Client Contact (the spec's columns), plus the status
 * and ticket code; flagged bookings are marked with their reason. Filters and pages.
 */
export function BookingsScreen({
  organizationId,
  timeZone,
  attentionOnly,
}: {
  organizationId: string;
  /** The organization's zone, for the time of a check-in. */
  timeZone: string;
  /** Opened from a "need your attention" link. */
  attentionOnly: boolean;
}) {
  const { t, locale, intlLocale } = useI18n();
  const [filters, setFilters] = useState<BookingFilters>({
    page: 1,
    from: '',
    to: '',
    status: '',
    attention: attentionOnly,
  });
  const badRange = filters.from !== '' && filters.to !== '' && filters.from > filters.to;
  const state = useAsync(
    (signal) => getBookings(organizationId, filters, signal),
    [organizationId, filters.page, filters.from, filters.to, filters.status, filters.attention],
    badRange,
  );
  const change = (next: Partial<BookingFilters>) => setFilters((f) => ({ ...f, page: 1, ...next }));

  const checkInTime = (iso: string) =>
    new Intl.DateTimeFormat(intlLocale, {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    }).format(new Date(iso));

  const loadError = (error: unknown): MessageKey => {
    if (error instanceof ApiError && error.status !== 0) {
      return errorCodeKey(error.code) ?? 'adminBookings.loadFailed';
    }
    return 'adminBookings.loadFailed';
  };

  const filtered =
    filters.from !== '' || filters.to !== '' || filters.status !== '' || filters.attention;

  return (
    <section aria-labelledby="bookings-title">
      <div className="screen-head">
        <h1 id="bookings-title" className="page-title">
          {t('adminBookings.title')}
        </h1>
      </div>
      <fieldset className="filters">
        <legend className="visually-hidden">{t('adminBookings.filters')}</legend>
        <Field label={t('adminBookings.from')}>
          {(ids) => (
            <input
              {...ids}
              type="date"
              className="input"
              value={filters.from}
              onChange={(e) => change({ from: e.target.value })}
            />
          )}
        </Field>
        <Field label={t('adminBookings.to')}>
          {(ids) => (
            <input
              {...ids}
              type="date"
              className="input"
              value={filters.to}
              onChange={(e) => change({ to: e.target.value })}
            />
          )}
        </Field>
        <div className="filters__wide">
          <Field label={t('adminBookings.status')}>
            {(ids) => (
              <select
                {...ids}
                className="input"
                value={filters.status}
                onChange={(e) => change({ status: e.target.value })}
              >
                <option value="">{t('adminBookings.statusAll')}</option>
                {BOOKING_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {t(STATUS_KEYS[s])}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <label className="check filters__wide">
          <input
            type="checkbox"
            checked={filters.attention}
            onChange={(e) => change({ attention: e.target.checked })}
          />
          {t('adminBookings.attentionOnly')}
        </label>
        {filtered ? (
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => change({ from: '', to: '', status: '', attention: false })}
          >
            {t('adminBookings.clear')}
          </button>
        ) : null}
      </fieldset>

      {badRange ? (
        <Alert tone="error">{t('error.INVALID_DATE_RANGE')}</Alert>
      ) : state.status === 'loading' ? (
        <Spinner label={t('common.loading')} />
      ) : state.status === 'error' ? (
        <Alert tone="error">{t(loadError(state.error))}</Alert>
      ) : state.data.bookings.length === 0 ? (
        <p className="empty-state">{t('adminBookings.empty')}</p>
      ) : (
        <>
          <p className="hint" aria-live="polite">
            {t(
              pluralOf(state.data.total, intlLocale) === 'one'
                ? 'adminBookings.total.one'
                : 'adminBookings.total.other',
              { n: state.data.total },
            )}
          </p>
          <div className="table-scroll">
            <table className="data-table">
              <caption className="visually-hidden">{t('adminBookings.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('adminBookings.col.client')}</th>
                  <th scope="col">{t('adminBookings.col.dayTime')}</th>
                  <th scope="col">{t('adminBookings.col.service')}</th>
                  <th scope="col">{t('adminBookings.col.contact')}</th>
                  <th scope="col">{t('adminBookings.col.status')}</th>
                </tr>
              </thead>
              <tbody>
                {state.data.bookings.map((b) => (
                  <tr
                    key={b.booking_id}
                    data-booking-id={b.booking_id}
                    className={b.attention_reason ? 'is-flagged' : undefined}
                  >
                    <td data-label={t('adminBookings.col.client')}>
                      <span>
                        {b.cus_name}
                        {b.cus_email ? <span className="cell-sub">{b.cus_email}</span> : null}
                      </span>
                    </td>
                    <td data-label={t('adminBookings.col.dayTime')}>
                      <span>
                        <span className="nowrap">
                          {formatDate(b.booking_date, intlLocale, DATE)}
                        </span>
                        <span className="cell-sub num">{b.time}</span>
                        {b.rescheduled_from ? (
                          <span className="cell-sub">
                            {t('adminBookings.movedFrom', {
                              date: formatDate(b.rescheduled_from.date, intlLocale, DATE),
                              time: b.rescheduled_from.time,
                            })}
                          </span>
                        ) : null}
                      </span>
                    </td>
                    <td data-label={t('adminBookings.col.service')}>
                      {localizedServiceName(b, locale)}
                    </td>
                    <td data-label={t('adminBookings.col.contact')}>
                      <a href={`tel:${b.phone_number}`} className="num nowrap">
                        {b.phone_number}
                      </a>
                    </td>
                    <td data-label={t('adminBookings.col.status')}>
                      <span>
                        <span className={statusTone(b.status)}>{t(STATUS_KEYS[b.status])}</span>
                        {b.cancelled_by ? (
                          <span className="cell-sub">{t(CANCELLED_BY_KEYS[b.cancelled_by])}</span>
                        ) : null}
                        <span className="cell-sub">
                          {t('adminBookings.ticketLabel')}{' '}
                          {b.ticket_code ? (
                            <span className="ticket-code">{b.ticket_code}</span>
                          ) : (
                            t('adminBookings.noTicket')
                          )}
                        </span>
                        {b.checked_in_at ? (
                          <span className="cell-sub">
                            {t('adminBookings.checkedInAt', { time: checkInTime(b.checked_in_at) })}
                          </span>
                        ) : null}
                        {b.attention_reason ? (
                          <span className="flag">
                            <span aria-hidden="true">⚠ </span>
                            {t('adminBookings.attention', {
                              reason: attentionReason(b.attention_reason, t),
                            })}
                          </span>
                        ) : null}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={state.data.page}
            pages={Math.max(1, Math.ceil(state.data.total / state.data.page_size))}
            onPage={(page) => setFilters((f) => ({ ...f, page }))}
          />
        </>
      )}
    </section>
  );
}

function Pagination({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}) {
  const { t } = useI18n();
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('adminBookings.pagination')}>
      <button
        type="button"
        className="btn btn--secondary"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {t('common.previous')}
      </button>
      <span className="pagination__status" aria-live="polite">
        {t('common.page', { page, total: pages })}
      </span>
      <button
        type="button"
        className="btn btn--secondary"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {t('common.next')}
      </button>
    </nav>
  );
}
