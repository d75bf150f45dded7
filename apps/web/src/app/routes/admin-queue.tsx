import { useSession } from '../../features/auth/components/session-provider';
import { CounterScreen } from '../../features/queue/components/counter-screen';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

/** The counter screen (staff and admins); the organization area's shell mounts it. */
export default function AdminQueueRoute() {
  useDocumentTitle('queue.title');
  const { state } = useSession();
  // The area's shell mounts this only for a signed-in account of an organization.
  const organizationId = state.status === 'signed-in' ? (state.organization?.id ?? '') : '';
  const isAdmin =
    state.status === 'signed-in' &&
    (state.user.role === 'org_admin' || state.user.role === 'branch_manager');
  return (
    <CounterScreen
      organizationId={organizationId}
      setupHref={isAdmin ? href(paths.adminQueueSetup.build()) : null}
    />
  );
}
