import { type DependencyList, useEffect, useState } from 'react';
import { isAbort } from './api-client';

export type AsyncState<T> =
  | { status: 'loading'; data: undefined; error: undefined }
  | { status: 'success'; data: T; error: undefined }
  | { status: 'error'; data: undefined; error: unknown };

const LOADING = { status: 'loading', data: undefined, error: undefined } as const;

/**
 * Runs `load` when `deps` change, aborting the previous run. `skip` leaves the state
 * untouched (used when navigation state already holds the data).
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  skip = false,
): AsyncState<T> {
  const [state, setState] = useState<AsyncState<T>>(LOADING);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what `load` reads.
  useEffect(() => {
    if (skip) return;
    const controller = new AbortController();
    setState(LOADING);
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'success', data, error: undefined });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        setState({ status: 'error', data: undefined, error });
      },
    );
    return () => controller.abort();
  }, [...deps, skip]);
  return state;
}
