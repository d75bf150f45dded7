import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { apiErrorKey } from '../../../lib/error-keys';
import { getMe } from '../../../lib/get-me';
import { useAsync } from '../../../lib/use-async';
import { OrganizationsPanel } from './organizations-panel';
import { OutboxPanel } from './outbox-panel';
import { PaymentsPanel } from './payments-panel';
import { PersonalDataPanel } from './personal-data-panel';
import { RequestsPanel } from './requests-panel';

const TABS = ['requests', 'organizations', 'outbox', 'payments', 'personalData', 'audit'] as const;
type Tab = (typeof TABS)[number];

/** `audit`: the audit log's panel, composed by the route (it is a feature of its own). */
function Tabs({ audit }: { audit: ReactNode }) {
  const { t } = useI18n();
  const id = useId();
  const [tab, setTab] = useState<Tab>('requests');
  const refs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});

  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  const onKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = TABS[(index + step + TABS.length) % TABS.length] as Tab;
    setTab(next);
    refs.current[next]?.focus();
  };

  return (
    <>
      <div className="console-tabs" role="tablist" aria-label={t('platform.sections')}>
        {TABS.map((name, index) => (
          <button
            key={name}
            ref={(el) => {
              refs.current[name] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${id}-panel`}
            tabIndex={tab === name ? 0 : -1}
            className="console-tab"
            onClick={() => setTab(name)}
            onKeyDown={(e) => onKey(e, index)}
          >
            {t(`platform.tab.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`}>
        {tab === 'requests' ? <RequestsPanel /> : null}
        {tab === 'organizations' ? <OrganizationsPanel /> : null}
        {tab === 'outbox' ? <OutboxPanel /> : null}
        {tab === 'payments' ? <PaymentsPanel /> : null}
        {tab === 'personalData' ? <PersonalDataPanel /> : null}
        {tab === 'audit' ? audit : null}
      </div>
    </>
  );
}

/** /platform — the platform team's console; everyone else is told why they cannot use it. */
export function PlatformConsole({
  loginHref,
  audit = null,
}: {
  loginHref: string;
  /** The audit log's panel (decision 032). */
  audit?: ReactNode;
}) {
  const { t } = useI18n();
  const session = useAsync((signal) => getMe(signal), []);

  if (session.status === 'loading') return <Spinner label={t('session.checking')} />;
  if (session.status === 'error') {
    return <Alert tone="error">{t(apiErrorKey(session.error))}</Alert>;
  }
  if (!session.data) {
    return (
      <div className="signed-out-box">
        <p>{t('session.signedOut')}</p>
        <a className="btn btn--primary" href={loginHref}>
          {t('session.login')}
        </a>
      </div>
    );
  }
  const { user } = session.data;
  return (
    <section className="console" aria-labelledby="console-title">
      <h1 id="console-title" className="page-title">
        {t('platform.title')}
      </h1>
      <p className="console-who">{t('platform.signedInAs', { email: user.email })}</p>
      {user.role === 'operator' ? (
        <Tabs audit={audit} />
      ) : (
        <Alert tone="error">{t('platform.forbidden')}</Alert>
      )}
    </section>
  );
}
