import type { ErrorCode } from '@qless/contract';
import { normalizeCameroonMobile } from '@qless/contract/core';
import { type FormEvent, useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { Alert } from '../../../components/ui/alert';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { joinWaitlist } from '../api/join-waitlist';
import { withdrawWaitlist } from '../api/withdraw-waitlist';
import { findDeviceEntry, forgetDeviceEntry, rememberDeviceEntry } from '../lib/device-waitlist';
import './waitlist.css';

/** The refusals said in the form's own words (the rest: the general messages). */
const REFUSALS: Partial<Record<ErrorCode, MessageKey>> = {
  INVALID_PHONE: 'waitlist.error.INVALID_PHONE',
  WAITLIST_DAY_NOT_FULL: 'waitlist.error.WAITLIST_DAY_NOT_FULL',
  WAITLIST_DAY_PASSED: 'waitlist.error.WAITLIST_DAY_PASSED',
  WAITLIST_FULL: 'waitlist.error.WAITLIST_FULL',
  TOO_MANY_WAITLIST_ENTRIES: 'waitlist.error.TOO_MANY_WAITLIST_ENTRIES',
  DAY_CLOSED: 'waitlist.error.WAITLIST_DAY_PASSED',
};

type Outcome =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | {
      kind: 'joined';
      entryId: string;
      key: string | null;
      offerMinutes: number;
    }
  | { kind: 'already'; offerMinutes: number | null }
  | { kind: 'withdrawn' }
  | { kind: 'refused'; text: string; phone: boolean };

interface Props {
  serviceId: string;
  /** The full day (yyyy-MM-dd) and how it is written on the page. */
  date: string;
  dateLabel: string;
  /** A seat is free after all (the list was stale): the slots are read again. */
  onNotFull?: () => void;
}

/**
 * "This day is full — leave your number": one field, one button. Joining sends nothing; the
 * only SMS is the offer of a freed seat, to the first in line, and the first to pay gets it.
 */
export function WaitlistForm({ serviceId, date, dateLabel, onNotFull }: Props) {
  const { t, locale } = useI18n();
  const id = useId();
  const [phone, setPhone] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [leaving, setLeaving] = useState<'idle' | 'sending' | 'failed'>('idle');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (outcome.kind === 'sending') return;
    if (!normalizeCameroonMobile(phone)) {
      setOutcome({ kind: 'refused', text: t('waitlist.error.INVALID_PHONE'), phone: true });
      return;
    }
    const e164 = normalizeCameroonMobile(phone) as string;
    // This device joined with this number already: the server would not say so (decision
    // 023), the device does.
    const known = findDeviceEntry(serviceId, date, e164);
    if (known) {
      setOutcome({ kind: 'already', offerMinutes: known.offerMinutes ?? null });
      return;
    }
    setOutcome({ kind: 'sending' });
    try {
      const answer = await joinWaitlist(serviceId, { date, phone, locale });
      rememberDeviceEntry({
        serviceId,
        date,
        phone: e164,
        entryId: answer.entry.entry_id,
        key: answer.withdraw_key,
        offerMinutes: answer.offer_minutes,
      });
      setOutcome({
        kind: 'joined',
        entryId: answer.entry.entry_id,
        key: answer.withdraw_key,
        offerMinutes: answer.offer_minutes,
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'WAITLIST_DAY_NOT_FULL') onNotFull?.();
      setOutcome({ kind: 'refused', text: refusalText(error), phone: isPhoneError(error) });
    }
  }

  function refusalText(error: unknown): string {
    if (!(error instanceof ApiError)) return t('error.generic');
    if (error.status === 0) return t('error.network');
    const detail = error.details.find((d) => d.code in REFUSALS)?.code;
    const key = (detail && REFUSALS[detail]) ?? (error.code && REFUSALS[error.code]);
    if (key) return t(key);
    if (error.status === 429) return t('error.RATE_LIMITED');
    return t('error.generic');
  }

  async function leave(entryId: string, key: string) {
    setLeaving('sending');
    try {
      await withdrawWaitlist(serviceId, entryId, key);
      forgetDeviceEntry(entryId);
      setLeaving('idle');
      setOutcome({ kind: 'withdrawn' });
    } catch {
      setLeaving('failed');
    }
  }

  if (outcome.kind === 'withdrawn') {
    return (
      <section className="waitlist" aria-labelledby={`${id}-title`} data-waitlist="withdrawn">
        <h3 id={`${id}-title`} className="waitlist__title">
          {t('waitlist.title')}
        </h3>
        <Alert tone="info">{t('waitlist.withdrawn', { date: dateLabel })}</Alert>
      </section>
    );
  }

  if (outcome.kind === 'joined' || outcome.kind === 'already') {
    return (
      <section className="waitlist" aria-labelledby={`${id}-title`} data-waitlist={outcome.kind}>
        <h3 id={`${id}-title`} className="waitlist__title">
          {t('waitlist.title')}
        </h3>
        <Alert tone="success">
          {/* No place in line: the server says none, so that nobody learns whether a
              stranger's number waits (decision 124). */}
          {outcome.kind === 'joined'
            ? t('waitlist.joined', { date: dateLabel })
            : t('waitlist.already', { date: dateLabel })}
        </Alert>
        <p className="hint">
          {outcome.offerMinutes
            ? t('waitlist.howItWorks', { minutes: outcome.offerMinutes })
            : t('waitlist.howItWorksUntimed')}
        </p>
        {outcome.kind === 'joined' && outcome.key ? (
          <>
            {leaving === 'failed' ? <Alert tone="error">{t('error.generic')}</Alert> : null}
            <button
              type="button"
              className="btn btn--secondary"
              disabled={leaving === 'sending'}
              onClick={() => outcome.key && leave(outcome.entryId, outcome.key)}
            >
              {leaving === 'sending' ? t('waitlist.withdrawing') : t('waitlist.withdraw')}
            </button>
          </>
        ) : null}
      </section>
    );
  }

  const refused = outcome.kind === 'refused' ? outcome : null;
  return (
    <section className="waitlist" aria-labelledby={`${id}-title`} data-waitlist="form">
      <h3 id={`${id}-title`} className="waitlist__title">
        {t('waitlist.title')}
      </h3>
      <p className="waitlist__lead">{t('waitlist.lead', { date: dateLabel })}</p>
      <form className="waitlist__form" onSubmit={submit} noValidate>
        <InputField
          label={t('waitlist.phone')}
          hint={t('waitlist.phoneHint')}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={30}
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          error={refused?.phone ? refused.text : undefined}
        />
        <div className="waitlist__live" aria-live="polite">
          {refused && !refused.phone ? <Alert tone="error">{refused.text}</Alert> : null}
        </div>
        <button type="submit" className="btn btn--primary" disabled={outcome.kind === 'sending'}>
          {outcome.kind === 'sending' ? t('waitlist.sending') : t('waitlist.submit')}
        </button>
      </form>
    </section>
  );
}

function isPhoneError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return [error.code, ...error.details.map((d) => d.code)].includes('INVALID_PHONE');
}
