import { useEffect, useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { VisitPage } from '../../features/queue-public/components/visit-page';
import {
  rememberVisit,
  visitKey,
  visitKeyStored,
} from '../../features/queue-public/lib/visit-keys';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { paths } from '../paths';

/**
 * `/visit/{visitId}?k=…`: a walk-in's turn. As the ticket page does with its key, the link's
 * key is kept on the device and dropped from the address (out of the history and of a later
 * reload); where the device cannot keep it, the address keeps it.
 */
export default function VisitRoute() {
  const { visitId = '' } = useParams<{ visitId: string }>();
  const [, navigate] = useLocation();
  const linkKey = new URLSearchParams(useSearch()).get('k');
  useDocumentTitle('queue.visit.title');
  // The device's keys are the browser's: none on the server or while hydrating.
  const hydrated = useHydrated();
  const [key, setKey] = useState<string | null>(linkKey);
  useEffect(() => {
    if (!hydrated) return;
    if (linkKey) {
      setKey(linkKey);
      rememberVisit(visitId, linkKey);
      if (visitKeyStored(visitId, linkKey)) navigate(paths.visit.build(visitId), { replace: true });
      return;
    }
    setKey((current) => current ?? visitKey(visitId));
  }, [hydrated, linkKey, visitId, navigate]);
  if (!hydrated && !linkKey) return null;
  return (
    <VisitPage
      key={visitId}
      visitId={visitId}
      accessKey={key ?? (hydrated ? visitKey(visitId) : null)}
    />
  );
}
