import { useLocation } from 'wouter';
import { Alert } from '../../components/ui/alert';
import { LoginForm } from '../../features/auth/components/login-form';
import { useI18n } from '../../i18n/i18n';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';
import { readLoginState } from './nav-state';

export default function LoginRoute() {
  const [, navigate] = useLocation();
  const { t } = useI18n();
  useDocumentTitle('login.title');
  const notice = readLoginState()?.notice;
  return (
    <div className="container page-section page-section--narrow">
      {notice === 'passwordChanged' ? (
        <Alert tone="success">{t('account.reset.done')}</Alert>
      ) : null}
      <LoginForm
        forgotHref={href(paths.forgotPassword.build())}
        onContact={() => navigate(paths.contact.build())}
        onSuccess={(user) =>
          navigate(user.role === 'operator' ? paths.platform.build() : paths.admin.build())
        }
      />
    </div>
  );
}
