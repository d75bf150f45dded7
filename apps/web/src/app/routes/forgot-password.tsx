import { ForgotPasswordForm } from '../../features/account/components/forgot-password-form';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

export default function ForgotPasswordRoute() {
  useDocumentTitle('account.forgot.title');
  return (
    <div className="container page-section page-section--narrow">
      <ForgotPasswordForm loginHref={href(paths.login.build())} />
    </div>
  );
}
