import { useLocation } from 'wouter';
import { LoginForm } from '../../features/auth/components/login-form';
import { useDocumentTitle } from '../../lib/use-document-title';
import { paths } from '../paths';

export default function LoginRoute() {
  const [, navigate] = useLocation();
  useDocumentTitle('login.title');
  return (
    <div className="container page-section page-section--narrow">
      <LoginForm
        onContact={() => navigate(paths.contact.build())}
        onSuccess={(user) =>
          navigate(user.role === 'operator' ? paths.platform.build() : paths.admin.build())
        }
      />
    </div>
  );
}
