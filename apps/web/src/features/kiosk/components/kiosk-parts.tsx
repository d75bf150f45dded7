import type { KioskInfo, PriorityCategory, VisitSlip } from '@qless/contract';
import { useEffect, useState } from 'react';
import { useI18n } from '../../../i18n/i18n';
import { groupedPhone, isCompletePhone, typeDigit } from '../lib/kiosk-phone';

/** How long the number stays on screen before the kiosk is ready for the next visitor. */
export const KIOSK_RESET_SECONDS = 15;

/** The branch's services as big buttons, each with its line now. */
export function ServiceChoice({
  info,
  onPick,
}: {
  info: KioskInfo;
  onPick: (serviceId: string) => void;
}) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="kiosk-title">
      <h1 id="kiosk-title" className="kiosk__title">
        {t('kiosk.title')}
      </h1>
      <p className="kiosk__hint">{t('kiosk.pickService')}</p>
      <ul className="kiosk__services">
        {info.services.map((s) => (
          <li key={s.service_id}>
            <button type="button" className="kiosk__service" onClick={() => onPick(s.service_id)}>
              <span className="kiosk__service-name">
                {locale === 'fr' ? (s.name_fr ?? s.name) : s.name}
              </span>
              <span className="kiosk__service-line">
                {t('kiosk.waiting', { count: s.waiting })}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The priority question (decision 138), asked only where the branch serves some visitors
 * first: one big button per category it serves, and "No". Staff see the answer in the line.
 */
export function PriorityStep({
  info,
  onAnswer,
  onBack,
}: {
  info: KioskInfo;
  onAnswer: (category: PriorityCategory | null) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="kiosk-priority-title">
      <h1 id="kiosk-priority-title" className="kiosk__title">
        {t('kiosk.priorityTitle')}
      </h1>
      <p className="kiosk__hint">{t('kiosk.priorityHint')}</p>
      <ul className="kiosk__services">
        {info.priority_categories.map((category) => (
          <li key={category}>
            <button type="button" className="kiosk__service" onClick={() => onAnswer(category)}>
              <span className="kiosk__service-name">
                {category === 'premium' && info.premium_label
                  ? info.premium_label
                  : t(`queue.priority.${category}`)}
              </span>
            </button>
          </li>
        ))}
        <li>
          <button type="button" className="kiosk__service" onClick={() => onAnswer(null)}>
            <span className="kiosk__service-name">{t('kiosk.priorityNone')}</span>
          </button>
        </li>
      </ul>
      <div className="kiosk__actions">
        <button type="button" className="kiosk__secondary" onClick={onBack}>
          {t('kiosk.back')}
        </button>
      </div>
    </section>
  );
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

/** The optional phone number, on the kiosk's own pad (no keyboard at a kiosk). */
export function PhoneStep({
  typed,
  onType,
  onBack,
  onIssue,
}: {
  typed: string;
  onType: (typed: string) => void;
  onBack: () => void;
  onIssue: (phone: string) => void;
}) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="kiosk-phone-title" className="kiosk__phone">
      <h1 id="kiosk-phone-title" className="kiosk__title">
        {t('kiosk.phoneTitle')}
      </h1>
      <p className="kiosk__hint">{t('kiosk.phoneBody')}</p>
      <output className="kiosk__typed" aria-live="polite" data-testid="kiosk-typed">
        {typed ? groupedPhone(typed) : '6 __ __ __ __'}
      </output>
      <div className="kiosk__pad">
        {KEYS.map((key) => (
          <button key={key} type="button" onClick={() => onType(typeDigit(typed, key))}>
            {key}
          </button>
        ))}
        <button
          type="button"
          onClick={() => onType(typed.slice(0, -1))}
          aria-label={t('kiosk.delete')}
        >
          ⌫
        </button>
        <button type="button" onClick={() => onType(typeDigit(typed, '0'))}>
          0
        </button>
        <button type="button" onClick={() => onType('')} aria-label={t('kiosk.clear')}>
          C
        </button>
      </div>
      <div className="kiosk__actions">
        <button
          type="button"
          className="kiosk__main"
          disabled={!isCompletePhone(typed)}
          onClick={() => onIssue(typed)}
        >
          {t('kiosk.withPhone')}
        </button>
        <button type="button" className="kiosk__secondary" onClick={() => onIssue('')}>
          {t('kiosk.noPhone')}
        </button>
        <button type="button" className="kiosk__secondary" onClick={onBack}>
          {t('kiosk.back')}
        </button>
      </div>
    </section>
  );
}

/** The number, very large, while the slip prints; then the next visitor's turn. */
export function IssuedView({ slip, onDone }: { slip: VisitSlip; onDone: () => void }) {
  const { t, locale } = useI18n();
  const [left, setLeft] = useState(KIOSK_RESET_SECONDS);
  useEffect(() => {
    const timer = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => clearInterval(timer);
  }, []);
  const service = locale === 'fr' ? (slip.service_name_fr ?? slip.service_name) : slip.service_name;
  return (
    <section aria-labelledby="kiosk-number" className="kiosk__issued">
      <p className="kiosk__hint">{t('kiosk.yourNumber')}</p>
      <h1 id="kiosk-number" className="kiosk__number" data-testid="kiosk-number">
        {slip.number}
      </h1>
      <p className="kiosk__service-name">{service}</p>
      {slip.position !== null ? (
        <p className="kiosk__hint">
          {slip.position === 1 ? t('kiosk.next') : t('kiosk.ahead', { count: slip.position - 1 })}
        </p>
      ) : null}
      <p className="kiosk__hint">{t('kiosk.takeTicket')}</p>
      <div className="kiosk__actions">
        <button type="button" className="kiosk__secondary" onClick={() => window.print()}>
          {t('kiosk.printAgain')}
        </button>
        <button type="button" className="kiosk__main" onClick={onDone}>
          {t('kiosk.done', { seconds: left })}
        </button>
      </div>
    </section>
  );
}
