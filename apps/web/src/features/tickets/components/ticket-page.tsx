import type { CustomerBooking } from '@qless/contract';
import { normalizeTicketCode } from '@qless/contract/core';
import { type ReactNode, startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { NotifyMe } from '../../../components/notify-me';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError, isAbort } from '../../../lib/api-client';
import { useWhenOnline } from '../../../lib/service-worker';
import { getCustomerBooking } from '../api/get-customer-booking';
import { useTicketLookup } from '../api/lookup-ticket';
import { accessTicket } from '../api/ticket-access';
import { errorText, waitText } from '../lib/booking-text';
import { deviceBookingForCode, rememberBooking } from '../lib/remember';
import { savedTicket } from '../lib/saved-tickets';
import { AccessForm } from './access-form';
import { BookingView } from './booking-view';
import type { LoadAvailability } from './reschedule-picker';
import { SavedNotice } from './saved-notice';
import { TicketSummary } from './ticket-summary';
import { useFocusOnMount } from './use-focus-on-mount';
import { WhatsAppChoice } from './whatsapp-choice';
import './tickets.css';

interface Props {
  /** The code as it came in the link (any case). */
  code: string;
  /** The access key of a ticket link (`?k=`), if the link had one. */
  linkKey: string | null;
  /** Called once the key has been used, so the page can drop it from the address. */
  onLinkKeyUsed: () => void;
  loadAvailability: LoadAvailability;
  slotsHref: (serviceId: string) => string;
  /** Opens another ticket's page (a code typed on a page whose link had a broken one). */
  openTicket: (code: string) => void;
  /** A checked-in booking's place in today's queue, composed by the route. */
  turn?: (visitId: string, accessKey: string) => ReactNode;
}

type View =
  | { kind: 'loading' }
  /** `savedAt`: the copy saved on this device, shown because the server could not be reached. */
  | { kind: 'booking'; booking: CustomerBooking; key: string; savedAt?: string }
  /** No proof on this device: the public look-up and the code + digits form. */
  | { kind: 'public'; notice: string | null }
  | { kind: 'error'; message: string };

/** Answers that mean "this proof does not open this booking", not "try again". */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && [400, 403, 404].includes(error.status);
}

/**
 * The ticket page: a link's key, or the key this device kept, opens the booking; without
 * either, anyone sees where and when, and the owner proves it with the phone's last digits.
 */
export function TicketPage(props: Props) {
  const { code: rawCode, linkKey, loadAvailability, slotsHref } = props;
  const { t, locale, intlLocale } = useI18n();
  const code = normalizeTicketCode(rawCode);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The server renders the public view (it never sees a key): with the link's key in the
  // query the booking is what comes, so the space below the summary waits for it.
  const [view, setView] = useState<View>(() =>
    code && linkKey ? { kind: 'loading' } : { kind: 'public', notice: null },
  );
  const [attempt, setAttempt] = useState(0);
  const [lookupAttempt, setLookupAttempt] = useState(0);
  const lookup = useTicketLookup(code ?? '', lookupAttempt);
  const viewRef = useRef(view);
  viewRef.current = view;
  const usedKey = useRef(props.onLinkKeyUsed);
  usedKey.current = props.onLinkKeyUsed;
  useFocusOnMount(headingRef);

  const messageOf = useCallback(
    (error: unknown) => {
      const text = errorText(error);
      return t(text.key, text.wait !== null ? { wait: waitText(text.wait, intlLocale) } : {});
    },
    [t, intlLocale],
  );

  const show = useCallback(
    (booking: CustomerBooking, key: string) => {
      rememberBooking(booking, key, locale);
      // The booking's view is the page's biggest render: as a transition React renders it in
      // slices that let taps through, not as one long task on a slow phone (decision 115).
      startTransition(() => setView({ kind: 'booking', booking, key }));
    },
    [locale],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs per code, link key and retry.
  useEffect(() => {
    if (!code) {
      setView({ kind: 'public', notice: null });
      return;
    }
    const current = viewRef.current;
    // The address lost its key after use: the booking on screen is still this one.
    if (!linkKey && current.kind === 'booking' && current.booking.code === code && !current.savedAt)
      return;
    const controller = new AbortController();
    const { signal } = controller;
    const saved = linkKey ? null : deviceBookingForCode(code);
    // Nothing to open: the public view the server rendered stays as it is.
    if (!linkKey && !saved) {
      if (current.kind !== 'public') setView({ kind: 'public', notice: null });
      return;
    }
    // A saved copy stays on screen while the server is asked again (the network is back).
    if (!(current.kind === 'booking' && current.savedAt)) setView({ kind: 'loading' });
    (async () => {
      try {
        if (linkKey) {
          const result = await accessTicket(code, { key: linkKey }, signal);
          if (signal.aborted) return;
          show(result.booking, result.access_key);
          usedKey.current();
          return;
        }
        if (saved) {
          const booking = await getCustomerBooking(saved.booking_id, saved.access_key, signal);
          if (signal.aborted) return;
          show(booking, saved.access_key);
        }
      } catch (error) {
        if (signal.aborted || isAbort(error)) return;
        if (isRefusal(error)) {
          // A wrong or outdated key: the digits still open the booking.
          setView({ kind: 'public', notice: linkKey ? t('ticketPage.error.badLink') : null });
          if (linkKey) usedKey.current();
          return;
        }
        // No network (or no server): the copy this device saved, said to be one (decision 113).
        const device = deviceBookingForCode(code);
        const copy = device ? savedTicket(device.booking_id) : null;
        if (device && copy) {
          setView({
            kind: 'booking',
            booking: copy.booking,
            key: device.access_key,
            savedAt: copy.saved_at,
          });
          if (linkKey) usedKey.current();
          return;
        }
        setView({ kind: 'error', message: messageOf(error) });
      }
    })();
    return () => controller.abort();
  }, [code, linkKey, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  useWhenOnline(view.kind === 'booking' && view.savedAt !== undefined, retry);

  const refresh = useCallback(() => {
    const current = viewRef.current;
    if (current.kind !== 'booking') return;
    getCustomerBooking(current.booking.booking_id, current.key).then(
      (booking) => show(booking, current.key),
      () => {
        // The page keeps what it shows; the next action reports the problem.
      },
    );
  }, [show]);

  const booking = view.kind === 'booking' ? view.booking : null;
  // Once checked in, the turn (number, place, "Go to Counter 3") is what the visitor came
  // for: first on the page, above the ticket's summary.
  const turn =
    view.kind === 'booking' && view.booking.visit_id && !view.savedAt
      ? props.turn?.(view.booking.visit_id, view.key)
      : null;
  // Its turn by a free notification on this phone (decision 142), or by WhatsApp where the
  // site sends it (decision 144), while the booking stands.
  const notify =
    view.kind === 'booking' &&
    !view.savedAt &&
    (view.booking.status === 'confirmed' || view.booking.status === 'checked_in') ? (
      <>
        <NotifyMe about={{ booking: view.booking.booking_id }} accessKey={view.key} />
        <WhatsAppChoice
          booking={view.booking}
          accessKey={view.key}
          onSaved={(next) => show(next, view.key)}
          onStale={refresh}
        />
      </>
    ) : null;
  return (
    <div className="container page-section page-section--narrow ticket-page">
      <h1 ref={headingRef} tabIndex={-1} className="page-title">
        {t('ticketPage.title')}
      </h1>
      {turn ? <div className="ticket-page__turn">{turn}</div> : null}
      {turn ? notify : null}
      {code ? (
        <p className="ticket-page__code">
          {t('ticketPage.codeLabel')} <strong>{code}</strong>
        </p>
      ) : null}

      {/* Painted from the server's HTML; a booking opened by a key fills it in place. */}
      {code ? (
        <TicketSummary
          lookup={lookup}
          booking={booking && booking.code === code ? booking : null}
          onRetry={() => setLookupAttempt((n) => n + 1)}
        />
      ) : null}

      {/* What comes later (the booking's QR and actions, or the access form) has its space
          kept, so the footer stays below the first screen and nothing moves (decision 112). */}
      <div className="ticket-page__more">
        {view.kind === 'loading' ? <Spinner label={t('ticketPage.loading')} /> : null}

        {view.kind === 'error' ? (
          <div className="ticket-card" role="alert">
            <p>{t('ticketPage.loadFailed')}</p>
            <p>{view.message}</p>
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => setAttempt((n) => n + 1)}
            >
              {t('common.retry')}
            </button>
          </div>
        ) : null}

        {view.kind === 'booking' && view.savedAt ? <SavedNotice savedAt={view.savedAt} /> : null}
        {view.kind === 'booking' ? (
          <BookingView
            booking={view.booking}
            accessKey={view.key}
            onChanged={(next) => show(next, view.key)}
            onRefresh={refresh}
            loadAvailability={loadAvailability}
            slotsHref={slotsHref}
          />
        ) : null}
        {turn ? null : notify}

        {view.kind === 'public' ? (
          <>
            {view.notice ? <Alert tone="warning">{view.notice}</Alert> : null}
            {code ? null : <Alert tone="error">{t('ticketPage.error.badCode')}</Alert>}
            <AccessForm
              {...(code ? { code } : {})}
              title={t('ticketPage.access.title')}
              intro={t('ticketPage.access.intro')}
              onAccess={(result, typed) => {
                if (typed === code) {
                  show(result.booking, result.access_key);
                } else {
                  rememberBooking(result.booking, result.access_key, locale);
                  props.openTicket(typed);
                }
              }}
            />
          </>
        ) : null}
      </div>
    </div>
  );
}
