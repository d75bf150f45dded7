import { useLocation, useParams } from 'wouter';
import { ResetPasswordForm } from '../../features/account/components/reset-password-form';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';
import type { LoginNavState } from './nav-state';

export default function ResetPasswordRoute() {
  const { token = '' } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  useDocumentTitle('account.reset.title');
  return (
    <div className="container page-section page-section--narrow">
      <ResetPasswordForm
        token={token}
        forgotHref={href(paths.forgotPassword.build())}
        onDone={() => {
          const state: LoginNavState = { notice: 'passwordChanged' };
          navigate(paths.login.build(), { replace: true, state });
        }}
      />
    </div>
  );
}
