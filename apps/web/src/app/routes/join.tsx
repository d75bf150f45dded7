import { useLocation, useParams } from 'wouter';
import { JoinPage } from '../../features/queue-public/components/join-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { paths } from '../paths';
import { NotFound } from './not-found';

/** `/join/{organizationId}`: the QR poster's page, a walk-in joins the queue by themself. */
export default function JoinRoute() {
  const { organizationId = '' } = useParams<{ organizationId: string }>();
  const [, navigate] = useLocation();
  useDocumentTitle('queue.join.title');
  return (
    <JoinPage
      orgId={organizationId}
      notFound={<NotFound what="organization" />}
      onJoined={(joined) => navigate(paths.visit.build(joined.turn.visit_id, { k: joined.key }))}
    />
  );
}
