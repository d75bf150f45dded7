import type { KioskInfo, PriorityCategory, VisitSlip } from '@qless/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { PrintableSlip } from '../../../components/slip/ticket-slip';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { getKiosk, isNetworkBlink, issueNumber } from '../api/kiosk-api';
import { isCompletePhone } from '../lib/kiosk-phone';
import kioskCss from './kiosk.css?url';
import {
  IssuedView,
  KIOSK_RESET_SECONDS,
  PhoneStep,
  PriorityStep,
  ServiceChoice,
} from './kiosk-parts';

/** How often the kiosk reads its branch again (open or closed, the lines' lengths). */
const REFRESH_MS = 30_000;
/** A press sent again every 2 s while the network blinks, for 40 s at most. */
const RETRY_MS = 2_000;
const RETRY_FOR_MS = 40_000;
/** A step left untouched this long (a visitor who walked away) goes back to the start. */
const KIOSK_IDLE_SECONDS = 60;

/** The visitor's answers so far: the service, and the priority question's (null: none). */
type Choice = { serviceId: string; category: PriorityCategory | null };

type Step =
  | { kind: 'services' }
  | { kind: 'priority'; serviceId: string }
  | ({ kind: 'phone'; typed: string } & Choice)
  | { kind: 'issuing'; retrying: boolean }
  | { kind: 'issued'; slip: VisitSlip };

const REFUSALS: Partial<Record<string, MessageKey>> = {
  QUEUE_CLOSED: 'kiosk.closed',
  PHONE_ALREADY_IN_LINE: 'kiosk.phoneInLine',
  INVALID_PHONE: 'kiosk.phoneInvalid',
  QUEUE_JOINS_BUSY: 'kiosk.busy',
  KIOSK_NOT_FOUND: 'kiosk.unknown',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The kiosk at the door (decision 135): a touch screen in portrait or landscape, no keyboard.
 * A visitor picks their service, answers the priority question where the branch serves some
 * visitors first, may type a phone number on the kiosk's own pad, and gets a
 * number, shown very large and printed; the kiosk returns to the start by itself. A press lost
 * in a network blink is sent again with the same id (one number, never two), and the screen
 * says so. Nothing of a visitor stays on screen after their turn at the kiosk.
 */
export function KioskPage({ token }: { token: string }) {
  const { t, locale, setLocale } = useI18n();
  const [info, setInfo] = useState<KioskInfo | null>(null);
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'services' });
  const [notice, setNotice] = useState<MessageKey | null>(null);
  const printed = useRef<string | null>(null);
  // The kiosk's own language: a visitor's choice lasts their turn at the kiosk only.
  const home = useRef(locale);

  const load = useCallback(async () => {
    try {
      setInfo(await getKiosk(token));
      setFailure(null);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'KIOSK_NOT_FOUND')
        setFailure('kiosk.unknown');
      else if (isNetworkBlink(error)) setFailure((f) => f ?? 'kiosk.offline');
    }
  }, [token]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  const restart = useCallback(() => {
    setLocale(home.current);
    setStep({ kind: 'services' });
    setNotice(null);
    void load();
  }, [load, setLocale]);

  /** A press in flight: a second tap before the screen changed issues nothing more. */
  const pressing = useRef(false);
  const issue = async (choice: Choice, phone: string) => {
    if (pressing.current) return;
    pressing.current = true;
    try {
      await issueOnce(choice, phone);
    } finally {
      pressing.current = false;
    }
  };

  const issueOnce = async (choice: Choice, phone: string) => {
    const requestId = crypto.randomUUID();
    const until = Date.now() + RETRY_FOR_MS;
    setNotice(null);
    setStep({ kind: 'issuing', retrying: false });
    for (;;) {
      try {
        const { slip } = await issueNumber(token, {
          service_id: choice.serviceId,
          request_id: requestId,
          locale,
          ...(choice.category ? { priority_category: choice.category } : {}),
          ...(isCompletePhone(phone) ? { phone } : {}),
        });
        setStep({ kind: 'issued', slip });
        return;
      } catch (error) {
        if (isNetworkBlink(error) && Date.now() < until) {
          setStep({ kind: 'issuing', retrying: true });
          await sleep(RETRY_MS);
          continue;
        }
        const code = error instanceof ApiError ? error.code : null;
        setNotice(
          (code && REFUSALS[code]) || (isNetworkBlink(error) ? 'kiosk.offline' : 'kiosk.failed'),
        );
        setStep(
          code === 'PHONE_ALREADY_IN_LINE' || code === 'INVALID_PHONE'
            ? { kind: 'phone', ...choice, typed: '' }
            : { kind: 'services' },
        );
        return;
      }
    }
  };

  // A visitor who walked away mid-way: the kiosk is the next visitor's after a while too.
  useEffect(() => {
    if (step.kind !== 'priority' && step.kind !== 'phone') return;
    const timer = setTimeout(restart, KIOSK_IDLE_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [step, restart]);

  // The number issued: the kiosk is the next visitor's after a while.
  useEffect(() => {
    if (step.kind !== 'issued') return;
    const timer = setTimeout(restart, KIOSK_RESET_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [step, restart]);
  // Printed once, when its slip is ready (the QR drawn).
  const issuedId = step.kind === 'issued' ? step.slip.visit_id : null;
  const printOnce = useCallback(() => {
    if (!issuedId || printed.current === issuedId) return;
    printed.current = issuedId;
    window.print();
  }, [issuedId]);

  const other = locale === 'fr' ? 'en' : 'fr';
  return (
    <div className="kiosk" data-kiosk-step={step.kind}>
      {/* Its own stylesheet: no other page carries the kiosk's rules in its inlined CSS. */}
      <link rel="stylesheet" href={kioskCss} precedence="area" />
      <div className="kiosk__top">
        <p className="kiosk__place">{info?.organization_name ?? ''}</p>
        <button type="button" className="kiosk__lang" lang={other} onClick={() => setLocale(other)}>
          {other === 'fr' ? 'Français' : 'English'}
        </button>
      </div>
      {failure === 'kiosk.unknown' ? (
        <p className="kiosk__message" role="alert">
          {t('kiosk.unknown')}
        </p>
      ) : !info ? (
        <div className="kiosk__message" role="status">
          <p>{failure ? t(failure) : t('common.loading')}</p>
          {failure ? (
            <button type="button" className="kiosk__main" onClick={() => void load()}>
              {t('common.retry')}
            </button>
          ) : null}
        </div>
      ) : !info.open ? (
        <p className="kiosk__message" role="status">
          {t('kiosk.closed')}
        </p>
      ) : (
        <div className="kiosk__body">
          {notice ? (
            <p className="kiosk__notice" role="alert">
              {t(notice)}
            </p>
          ) : null}
          {step.kind === 'services' ? (
            <ServiceChoice
              info={info}
              onPick={(serviceId) =>
                setStep(
                  info.priority_categories.length > 0
                    ? { kind: 'priority', serviceId }
                    : { kind: 'phone', serviceId, category: null, typed: '' },
                )
              }
            />
          ) : step.kind === 'priority' ? (
            <PriorityStep
              info={info}
              onBack={restart}
              onAnswer={(category) =>
                setStep({ kind: 'phone', serviceId: step.serviceId, category, typed: '' })
              }
            />
          ) : step.kind === 'phone' ? (
            <PhoneStep
              typed={step.typed}
              onType={(typed) => setStep({ ...step, typed })}
              onBack={restart}
              onIssue={(phone) => void issue(step, phone)}
            />
          ) : step.kind === 'issuing' ? (
            <p className="kiosk__message" role="status">
              {step.retrying ? t('kiosk.retrying') : t('kiosk.issuing')}
            </p>
          ) : (
            <IssuedView slip={step.slip} onDone={restart} />
          )}
          {failure === 'kiosk.offline' ? (
            <p className="kiosk__notice" role="status">
              {t('kiosk.offline')}
            </p>
          ) : null}
        </div>
      )}
      {step.kind === 'issued' ? (
        <PrintableSlip slip={step.slip} paper={info?.paper ?? '58mm'} onReady={printOnce} />
      ) : null}
    </div>
  );
}
