import { useCallback } from 'react';
import { useLocation, useParams } from 'wouter';
import { FollowPage } from '../../features/queue-public/components/follow-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { paths } from '../paths';

/** `/f/{code}`: a printed ticket's short code opens the visitor's turn. */
export default function FollowRoute() {
  const { code = '' } = useParams<{ code: string }>();
  const [, navigate] = useLocation();
  useDocumentTitle('follow.title');
  const open = useCallback(
    (visitId: string, key: string) =>
      navigate(paths.visit.build(visitId, { k: key }), { replace: true }),
    [navigate],
  );
  return (
    <FollowPage
      key={code}
      code={code}
      open={open}
      retype={(typed) => navigate(paths.follow.build(typed))}
    />
  );
}
