import { useLocation, useParams } from 'wouter';
import { InvitePage } from '../../features/account/components/invite-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

export default function InviteRoute() {
  const { token = '' } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  useDocumentTitle('account.invite.title');
  return (
    <div className="container page-section page-section--narrow">
      <InvitePage
        token={token}
        loginHref={href(paths.login.build())}
        // The invitation link must not stay in history once it is spent.
        onSignedIn={() => navigate(paths.admin.build(), { replace: true })}
      />
    </div>
  );
}
