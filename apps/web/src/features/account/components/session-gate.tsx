import type { MeResponse } from '@qless/contract';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { useAsync } from '../../../lib/use-async';
import { getMe } from '../api/get-me';
import { errorMessageKey } from '../lib/error-message';
import './account.css';

/** Renders `children(me)` for a signed-in account; "You are not logged in." otherwise. */
export function SessionGate({
  loginHref,
  children,
}: {
  loginHref: string;
  children: (me: MeResponse) => ReactNode;
}) {
  const { t } = useI18n();
  const session = useAsync((signal) => getMe(signal), []);
  if (session.status === 'loading') return <Spinner label={t('session.checking')} />;
  if (session.status === 'error')
    return <Alert tone="error">{t(errorMessageKey(session.error))}</Alert>;
  if (!session.data) {
    return (
      <div className="signed-out">
        <p>{t('session.signedOut')}</p>
        <a className="btn btn--primary" href={loginHref}>
          {t('session.login')}
        </a>
      </div>
    );
  }
  return <>{children(session.data)}</>;
}
