import type { CheckinBooking } from '@qless/contract';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { formatDate, LONG_DATE } from '../../../lib/dates';
import { getQueueNumbers } from '../api/queue-numbers';
import { decodeQrFile, prepareDecoder } from '../lib/qr-decode';
import { readUntilDone } from '../lib/read-until-done';
import { scannedText } from '../lib/scanned-text';
import { useDesk } from '../lib/use-desk';
import { BookingList } from './booking-list';
import { CameraScanner } from './camera-scanner';
import { ResultPanel, SyncConflicts } from './result-panel';

type Pending = { booking: CheckinBooking; action: 'no_show' | 'cancel' };

const ACTION_ERROR = {
  SLOT_NOT_STARTED: 'checkin.action.notStarted',
  ALREADY_CHECKED_IN: 'checkin.action.changed',
  BOOKING_CANCELLED: 'checkin.action.changed',
  BOOKING_NO_SHOW: 'checkin.action.changed',
  BOOKING_HELD: 'checkin.action.changed',
  BOOKING_EXPIRED: 'checkin.action.changed',
} as const;

/**
 * The check-in desk's Today screen: the day's bookings, a camera or photo scan of a ticket's QR
 * code or its typed code, each result said in words; it keeps working offline with the
 * list and key it cached, and sends what it checked in once the network is back.
 */
export function TodayScreen(props: {
  loginHref: string;
  ownerId: string;
  /** The counter screen: checked-in visitors go on to the queue there. */
  queueHref?: string;
}) {
  const { t, intlLocale } = useI18n();
  const desk = useDesk(props.ownerId);
  const { today, list, online, queue, outcome, discarded } = desk;
  const [camera, setCamera] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const confirmTitle = useId();

  useEffect(() => {
    void prepareDecoder();
  }, []);

  // Each checked-in booking's queue number, read again whenever the day's list or a scan's
  // result changes; offline the list simply shows none. A failed read keeps the numbers
  // shown and is tried again (3 s, then longer): the number the desk reads out must come.
  const [numbers, setNumbers] = useState<ReadonlyMap<string, string>>(new Map());
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again on each new list or result.
  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    readUntilDone(getQueueNumbers, controller.signal, setNumbers);
    return () => controller.abort();
  }, [today, outcome, online]);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const onCode = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const result = await desk.typeCode(code);
      if (result.kind !== 'invalid_code') setCode('');
    });
  };

  const onFile = (picked: File | undefined) => {
    if (!picked) return;
    void run(async () => {
      const text = await decodeQrFile(picked).catch(() => null);
      if (file.current) file.current.value = '';
      if (!text) return desk.showOutcome({ kind: 'no_qr' });
      await desk.checkIn(scannedText(text));
    });
  };

  const onConfirm = () => {
    if (!pending) return;
    const { booking, action } = pending;
    void run(async () => {
      const result = await desk.act(booking, action);
      setPending(null);
      if (result.ok) return setActionError(null);
      const key =
        result.code && result.code in ACTION_ERROR
          ? ACTION_ERROR[result.code as keyof typeof ACTION_ERROR]
          : online
            ? 'checkin.action.failed'
            : 'checkin.action.offline';
      setActionError(t(key));
    });
  };

  if (list === 'signed_out') {
    return (
      <div className="checkin">
        <p className="empty-state">
          {t('checkin.signedOut')} <a href={props.loginHref}>{t('nav.login')}</a>
        </p>
      </div>
    );
  }

  return (
    <div className="checkin">
      <header className="checkin__head">
        <h1 className="page-title">{t('checkin.title')}</h1>
        {today ? (
          <p className="page-lead">
            {today.organization.name} · {formatDate(today.date, intlLocale, LONG_DATE)}
          </p>
        ) : null}
      </header>

      {props.queueHref ? (
        <a className="btn btn--primary btn--lg checkin-queue-door" href={props.queueHref}>
          {t('checkin.queueDoor')}
        </a>
      ) : null}

      <p
        className={`checkin-network ${online ? 'checkin-network--online' : 'checkin-network--offline'}`}
        role="status"
        data-testid="checkin-network"
      >
        {online
          ? t(queue.length > 0 ? 'checkin.network.sending' : 'checkin.network.online')
          : queue.length === 0
            ? t('checkin.network.offline')
            : queue.length === 1
              ? t('checkin.network.offlineOne')
              : t('checkin.network.offlineMany', { n: queue.length })}
      </p>

      {discarded > 0 ? (
        <p className="checkin-network checkin-network--offline" role="alert">
          {t('checkin.discarded', { n: discarded })}
        </p>
      ) : null}

      <section className="checkin-scan" aria-label={t('checkin.scan.label')}>
        <div className="checkin-scan__buttons">
          <button
            type="button"
            className="btn btn--primary btn--lg"
            onClick={() => setCamera(true)}
            disabled={busy}
          >
            {t('checkin.scan.camera')}
          </button>
          <label className={`btn btn--secondary btn--lg${busy ? ' is-disabled' : ''}`}>
            {t('checkin.scan.image')}
            <input
              ref={file}
              type="file"
              accept="image/*"
              capture="environment"
              className="visually-hidden"
              data-testid="checkin-image"
              disabled={busy}
              onChange={(event) => onFile(event.target.files?.[0])}
            />
          </label>
        </div>
        <form className="checkin-code" onSubmit={onCode}>
          <label htmlFor="checkin-code-input">{t('checkin.code.label')}</label>
          <div className="checkin-code__row">
            <input
              id="checkin-code-input"
              className="input checkin-code__input"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              placeholder="QL-7K4M-2QAB-XC9D"
              autoCapitalize="characters"
              autoComplete="off"
              spellCheck={false}
              maxLength={40}
              required
            />
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {t('checkin.code.submit')}
            </button>
          </div>
        </form>
      </section>

      <ResultPanel outcome={outcome} />
      <SyncConflicts
        conflicts={desk.conflicts}
        timeZone={today?.organization.time_zone ?? 'Africa/Douala'}
        onDismiss={desk.dismissConflicts}
      />

      <section className="checkin-day" aria-labelledby="checkin-day-title">
        <h2 id="checkin-day-title" className="checkin-day__title">
          {t('checkin.list.title')}
        </h2>
        {actionError ? (
          <p className="alert alert--error" role="alert">
            {actionError}
          </p>
        ) : null}
        {today ? (
          <BookingList
            bookings={today.bookings}
            queueNumbers={numbers}
            canAct={online && !busy}
            onAction={(booking, action) => setPending({ booking, action })}
          />
        ) : list === 'loading' ? (
          <Spinner label={t('common.loading')} />
        ) : (
          <p className="alert alert--error" role="alert">
            {t('checkin.list.failed')}
          </p>
        )}
      </section>

      {camera ? (
        <CameraScanner
          onClose={() => setCamera(false)}
          onRead={(text) => {
            setCamera(false);
            void run(() => desk.checkIn(scannedText(text)));
          }}
        />
      ) : null}

      {pending ? (
        <Modal
          labelledBy={confirmTitle}
          onClose={() => setPending(null)}
          closeLabel={t('checkin.confirm.back')}
        >
          <h2 id={confirmTitle} className="modal__title">
            {t(
              pending.action === 'no_show'
                ? 'checkin.confirm.noShowTitle'
                : 'checkin.confirm.cancelTitle',
            )}
          </h2>
          <p>
            {t(
              pending.action === 'no_show'
                ? 'checkin.confirm.noShowText'
                : 'checkin.confirm.cancelText',
              {
                name: pending.booking.cus_name,
                time: pending.booking.time,
              },
            )}
          </p>
          <div className="modal__actions">
            <button type="button" className="btn btn--primary" onClick={onConfirm} disabled={busy}>
              {t(
                pending.action === 'no_show' ? 'checkin.confirm.noShow' : 'checkin.confirm.cancel',
              )}
            </button>
            <button type="button" className="btn btn--secondary" onClick={() => setPending(null)}>
              {t('checkin.confirm.back')}
            </button>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}
