import type { PushAbout } from '@qless/contract';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n';
import { initialPushState, type PushState, turnOnPush } from '../lib/web-push';
import { Alert } from './ui/alert';

/**
 * "Notify me on this phone" (decision 142): a free notification of the turn instead of an SMS.
 * Not drawn where the browser cannot be notified (nothing to offer); once on, it says what
 * happens: a notification, and an SMS only when the notification did not arrive.
 */
export function NotifyMe({ about, accessKey }: { about: PushAbout; accessKey: string }) {
  const { t, locale } = useI18n();
  // Read after the first render: the server's page has no browser to ask.
  const [state, setState] = useState<PushState>('unsupported');
  const aboutId = 'booking' in about ? about.booking : about.visit;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `about` is new each render; its id says it all.
  useEffect(() => setState(initialPushState(about)), [aboutId]);
  if (state === 'unsupported') return null;

  const turnOn = () => {
    if (state === 'asking') return;
    setState('asking');
    turnOnPush(about, accessKey, locale).then(setState, () => setState('failed'));
  };

  return (
    <section className="notify-me" data-testid="notify-me" data-state={state}>
      {state === 'on' ? (
        <p className="notify-me__on" role="status">
          {t('push.on')}
        </p>
      ) : state === 'denied' ? (
        <p className="hint" role="status">
          {t('push.denied')}
        </p>
      ) : (
        <>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={turnOn}
            aria-busy={state === 'asking'}
            disabled={state === 'asking'}
          >
            {state === 'asking' ? t('push.asking') : t('push.notify')}
          </button>
          <p className="hint">{t('push.why')}</p>
          {state === 'failed' ? <Alert tone="error">{t('push.failed')}</Alert> : null}
        </>
      )}
    </section>
  );
}
