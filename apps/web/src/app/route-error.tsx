import { Component, type ReactNode, useEffect, useRef, useState } from 'react';
// wouter's own route parser (its dependency): the page is found as the router finds it.
import { parse } from 'regexparam';
import { useLocation } from 'wouter';
import { LoadError } from '../components/ui/load-error';
import { useI18n } from '../i18n/i18n';
import { pageOf } from './route-table';
import { isChunkLoadError, reloadOnceForNewBuild, serverAnswers } from './stale-build';

/**
 * What a page that failed to load shows, inside the layout (the header and footer stay):
 * a heading, a message in the page's language and Retry. Retry loads the page's chunk again
 * and shows the page; when the browser keeps the failed import (Chromium and Firefox keep a
 * failed module fetch for the document's life) and the server answers again, it reloads the
 * page, which the server renders.
 */
function RouteError({ onRetry, chunkError }: { onRetry: () => void; chunkError: unknown }) {
  const { t } = useI18n();
  const [path] = useLocation();
  const [busy, setBusy] = useState(false);
  const [stillFailing, setStillFailing] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // The reader tapped something that did not come: say where they are.
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  // A chunk a deploy removed (decision 027): the new build, once, on this very address.
  useEffect(() => {
    if (chunkError) void reloadOnceForNewBuild(chunkError);
  }, [chunkError]);

  const retry = async () => {
    setBusy(true);
    const loaded = await pageOf(parse, path)
      .retry()
      .then(
        () => true,
        () => false,
      );
    if (loaded) return onRetry();
    if (await serverAnswers()) {
      window.location.reload();
      return;
    }
    setBusy(false);
    setStillFailing(true);
  };

  return (
    <div className="container page-section route-error">
      <h1 className="page-title" ref={heading} tabIndex={-1}>
        {t('routeError.title')}
      </h1>
      <LoadError
        message={t(stillFailing ? 'routeError.stillOffline' : 'routeError.body')}
        retryLabel={busy ? t('routeError.retrying') : t('common.retry')}
        onRetry={() => {
          if (!busy) void retry();
        }}
      />
    </div>
  );
}

interface BoundaryProps {
  /** The address shown: moving elsewhere clears the failure (that page may load). */
  resetKey: string;
  children: ReactNode;
}

/**
 * Around every route: a page whose code or first render fails leaves the layout
 * standing with a message and Retry, instead of unmounting the whole app (a white page).
 * React itself logs the caught error to the console.
 */
interface BoundaryState {
  failed: boolean;
  /** The error, when it is a chunk's that did not load (null otherwise). */
  chunkError: unknown;
}

class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, chunkError: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { failed: true, chunkError: isChunkLoadError(error) ? error : null };
  }

  override componentDidUpdate(previous: BoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) {
      this.setState({ failed: false });
    }
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <RouteError
        chunkError={this.state.chunkError}
        onRetry={() => this.setState({ failed: false, chunkError: null })}
      />
    );
  }
}

/** The route's error boundary, reset when the address changes. */
export function RouteBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return <RouteErrorBoundary resetKey={location}>{children}</RouteErrorBoundary>;
}
