import { type DependencyList, useEffect, useRef, useState } from 'react';
import { ApiError, isAbort } from './api-client';
import { dropEmbedded, type Embedded, embeddedIsCurrent, useEmbeddedData } from './embedded-data';

export type AsyncState<T> =
  | { status: 'loading'; data: undefined; error: undefined }
  | { status: 'success'; data: T; error: undefined }
  | { status: 'error'; data: undefined; error: unknown };

const LOADING = { status: 'loading', data: undefined, error: undefined } as const;

/**
 * Runs `load` when `deps` change, aborting the previous run. `skip` leaves the state
 * untouched (used when navigation state already holds the data). `initial` names the API
 * answer the server rendered the page with: the first render starts from it (on the server
 * and when hydrating, so both render the same), and the first run is skipped.
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  skip = false,
  initial?: Embedded<T>,
): AsyncState<T> {
  const data = useEmbeddedData();
  const seeded = useRef<string | null>(null);
  const [state, setState] = useState<AsyncState<T>>(() => {
    if (skip || !initial) return LOADING;
    const failed = data.errors?.[initial.path];
    if (failed) {
      seeded.current = initial.path;
      const code = failed.code as ConstructorParameters<typeof ApiError>[1];
      const error = new ApiError(failed.status, code, failed.message);
      return { status: 'error', data: undefined, error };
    }
    const body = data.api[initial.path];
    if (body === undefined) return LOADING;
    seeded.current = initial.path;
    return { status: 'success', data: initial.pick(body), error: undefined };
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what `load` reads.
  useEffect(() => {
    if (skip) return;
    // A page brought back by Back/Forward shows what it was rendered with while it asks again.
    let revalidating = false;
    if (seeded.current !== null) {
      // Used once: a later run (new deps, retry, another visit) asks the API.
      dropEmbedded(seeded.current);
      seeded.current = null;
      if (embeddedIsCurrent()) return;
      revalidating = true;
    }
    const controller = new AbortController();
    if (!revalidating) setState(LOADING);
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'success', data, error: undefined });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        // Offline: the rendered answer stays on screen rather than an error.
        if (revalidating) return;
        setState({ status: 'error', data: undefined, error });
      },
    );
    return () => controller.abort();
  }, [...deps, skip]);
  return state;
}
