import { useEffect, useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { VisitPage } from '../../features/queue-public/components/visit-page';
import {
  linkKeyOf,
  rememberVisit,
  visitKey,
  visitKeyStored,
} from '../../features/queue-public/lib/visit-keys';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { paths } from '../paths';

/**
 * `/visit/{visitId}#k=…`: a walk-in's turn. The key travels in the fragment, as ticket links
 * carry theirs (never sent to a server, its logs or a Referer); a link sent before with
 * `?k=…` still opens the page (decision 120). As the ticket page does, the link's key is kept
 * on the device and dropped from the address (out of the history and of a later reload);
 * where the device cannot keep it, the address keeps it, in the fragment.
 */
export default function VisitRoute() {
  const { visitId = '' } = useParams<{ visitId: string }>();
  const [, navigate] = useLocation();
  const search = useSearch();
  useDocumentTitle('queue.visit.title');
  // The device's keys and the fragment are the browser's: none on the server or while
  // hydrating (the server rendered without them).
  const hydrated = useHydrated();
  const [linkKey, setLinkKey] = useState<string | null>(null);
  // Read again when the address's query changes (the key dropped from an older link).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `search` is the trigger.
  useEffect(() => {
    const read = () => setLinkKey(linkKeyOf(location.search, location.hash));
    read();
    // A link followed while this very page is open changes only the fragment.
    addEventListener('hashchange', read);
    return () => removeEventListener('hashchange', read);
  }, [search]);
  const [key, setKey] = useState<string | null>(null);
  useEffect(() => {
    if (!hydrated) return;
    if (linkKey) {
      setKey(linkKey);
      rememberVisit(visitId, linkKey);
      navigate(
        visitKeyStored(visitId, linkKey)
          ? paths.visit.build(visitId)
          : // Not kept on this device: the key stays, but in the fragment, not the query.
            paths.visit.build(visitId, { k: linkKey }),
        { replace: true },
      );
      return;
    }
    setKey((current) => current ?? visitKey(visitId));
  }, [hydrated, linkKey, visitId, navigate]);
  if (!hydrated) return null;
  const accessKey = key ?? linkKey ?? visitKey(visitId);
  return (
    <VisitPage
      key={visitId}
      visitId={visitId}
      accessKey={accessKey}
      link={accessKey ? `${location.origin}${paths.visit.build(visitId, { k: accessKey })}` : null}
      feedbackHref={(token) => paths.feedback.build(token)}
    />
  );
}
