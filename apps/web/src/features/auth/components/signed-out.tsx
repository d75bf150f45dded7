import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';

/** What a signed-in area shows to nobody: the spec's sentence and the way in. */
export function SignedOut({ expired, loginHref }: { expired: boolean; loginHref: string }) {
  const { t } = useI18n();
  return (
    <div className="container page-section page-section--narrow signed-out">
      {expired ? <Alert tone="warning">{t('area.expired')}</Alert> : null}
      <div className="form-card">
        <p className="page-lead">{t('area.signedOut')}</p>
        <a className="btn btn--primary" href={loginHref}>
          {t('area.login')}
        </a>
      </div>
    </div>
  );
}
