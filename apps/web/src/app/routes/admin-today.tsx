import { useSession } from '../../features/auth/components/session-provider';
import { TodayScreen } from '../../features/checkin/components/today-screen';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

/** The check-in desk's Today screen (check-in); the organization area's shell mounts it. */
export default function AdminTodayRoute() {
  useDocumentTitle('checkin.title');
  const { state } = useSession();
  // The area's shell mounts this only for a signed-in account.
  const ownerId = state.status === 'signed-in' ? state.user.id : '';
  return (
    <TodayScreen
      loginHref={href(paths.login.build())}
      ownerId={ownerId}
      queueHref={href(paths.adminQueue.build())}
    />
  );
}
