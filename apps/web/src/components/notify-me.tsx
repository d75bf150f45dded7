import type { PushAbout } from '@qless/contract';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n';
import { initialPushState, type PushState, turnOffPush, turnOnPush } from '../lib/web-push';
import { Alert } from './ui/alert';

/**
 * "Notify me on this phone" (decision 142): a free notification of the turn instead of an SMS.
 * Not drawn where the browser cannot be notified (nothing to offer); once on, it says what
 * happens (a notification, and an SMS only when the notification did not arrive) and offers
 * "Stop". `compact`: a line in a list (My bookings), the explanation left to the ticket page;
 * `describedBy`: the id of what the buttons are about there (the booking's service and date).
 */
export function NotifyMe({
  about,
  accessKey,
  compact = false,
  describedBy,
}: {
  about: PushAbout;
  accessKey: string;
  compact?: boolean;
  describedBy?: string;
}) {
  const { t, locale } = useI18n();
  // Read after the first render: the server's page has no browser to ask.
  const [state, setState] = useState<PushState>('unsupported');
  const aboutId = 'booking' in about ? about.booking : about.visit;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `about` is new each render; its id says it all.
  useEffect(() => setState(initialPushState(about)), [aboutId]);
  // The button pressed is replaced by the other one (Notify ↔ Stop): the keyboard's focus
  // moves to it rather than to the page's start.
  const button = useRef<HTMLButtonElement>(null);
  const pressed = useRef(false);
  useEffect(() => {
    if (!pressed.current || state === 'asking' || state === 'stopping') return;
    pressed.current = false;
    button.current?.focus();
  }, [state]);
  if (state === 'unsupported') return null;

  const turnOn = () => {
    if (state === 'asking') return;
    pressed.current = true;
    setState('asking');
    turnOnPush(about, accessKey, locale).then(setState, () => setState('failed'));
  };
  const turnOff = () => {
    if (state === 'stopping') return;
    pressed.current = true;
    setState('stopping');
    turnOffPush(about, accessKey).then(setState, () => setState('stopFailed'));
  };

  return (
    <section className="notify-me" data-testid="notify-me" data-state={state}>
      {state === 'on' || state === 'stopping' || state === 'stopFailed' ? (
        <>
          <p className="notify-me__on" role="status">
            {compact ? t('push.onShort') : t('push.on')}
          </p>
          <button
            ref={button}
            type="button"
            className="btn btn--secondary"
            onClick={turnOff}
            aria-busy={state === 'stopping'}
            aria-disabled={state === 'stopping'}
            aria-describedby={describedBy}
          >
            {t('push.stop')}
          </button>
          {state === 'stopFailed' ? <Alert tone="error">{t('push.stopFailed')}</Alert> : null}
        </>
      ) : state === 'denied' ? (
        <p className="hint" role="status">
          {t('push.denied')}
        </p>
      ) : (
        <>
          <button
            ref={button}
            type="button"
            className="btn btn--secondary"
            onClick={turnOn}
            aria-busy={state === 'asking'}
            aria-disabled={state === 'asking'}
            aria-describedby={describedBy}
          >
            {state === 'asking' ? t('push.asking') : t('push.notify')}
          </button>
          {compact ? null : <p className="hint">{t('push.why')}</p>}
          {state === 'failed' ? <Alert tone="error">{t('push.failed')}</Alert> : null}
        </>
      )}
    </section>
  );
}
