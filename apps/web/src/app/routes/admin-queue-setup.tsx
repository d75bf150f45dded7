import { useSession } from '../../features/auth/components/session-provider';
import { QueueSetup } from '../../features/queue/components/queue-setup';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

/** The queue's setup (admins): counters, boards, rules and the poster. */
export default function AdminQueueSetupRoute() {
  useDocumentTitle('queueSetup.title');
  const { state } = useSession();
  const organizationId = state.status === 'signed-in' ? (state.organization?.id ?? '') : '';
  return (
    <QueueSetup organizationId={organizationId} counterHref={href(paths.adminQueue.build())} />
  );
}
