import { EMBEDDED_DATA_ID, type EmbeddedData } from '@qless/contract/web-page';
import { createContext, useContext } from 'react';
import type { ApiQuery } from './api-client';

// The shape the server writes (decision 107) and its script's id are the contract's: the
// server embeds what `plan()` returned, the browser reads it back here.
export type { EmbeddedData } from '@qless/contract/web-page';

const EmbeddedDataContext = createContext<EmbeddedData | null>(null);
export const EmbeddedDataProvider = EmbeddedDataContext.Provider;

let documentData: EmbeddedData | null = null;

function fromDocument(): EmbeddedData {
  if (documentData) return documentData;
  documentData = { api: {} };
  if (typeof document === 'undefined') return documentData;
  const script = document.getElementById(EMBEDDED_DATA_ID);
  if (!script?.textContent) return documentData;
  try {
    const parsed: unknown = JSON.parse(script.textContent);
    if (typeof parsed === 'object' && parsed !== null && 'api' in parsed) {
      documentData = parsed as EmbeddedData;
    }
  } catch {
    // Unreadable: the page loads its data as it would without it.
  }
  return documentData;
}

/** Whether the server rendered this document (the browser then hydrates it). */
export function serverRendered(): boolean {
  return typeof document !== 'undefined' && document.getElementById(EMBEDDED_DATA_ID) !== null;
}

export function useEmbeddedData(): EmbeddedData {
  return useContext(EmbeddedDataContext) ?? fromDocument();
}

/**
 * Forgets an answer once a page used it: a later visit of the same page (navigation, retry)
 * asks the API for a fresh one. Only the browser's copy is dropped.
 */
export function dropEmbedded(apiPath: string): void {
  const data = fromDocument();
  delete data.api[apiPath];
  if (data.errors) delete data.errors[apiPath];
}

/**
 * Whether the embedded answers are as fresh as the page: not when Back or Forward brought the
 * page from the browser's cache (`no-cache` is not revalidated on history navigation), where
 * they may be an hour old; the page then shows them and asks again at once.
 */
export function embeddedIsCurrent(): boolean {
  if (typeof performance === 'undefined' || !performance.getEntriesByType) return true;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.type !== 'back_forward';
}

/** Forgets the render time once the page's clock has taken over. */
export function dropEmbeddedNow(): void {
  delete fromDocument().now;
}

/** An API answer the first render may start from: its path and what the hook keeps of it. */
export interface Embedded<T> {
  path: string;
  pick: (body: unknown) => T;
}

/** `pick` reads the answer as the query's body (the server got it from the same route). */
export function embedded<B, T>(query: ApiQuery<B>, pick: (body: B) => T): Embedded<T> {
  return { path: query.path, pick: (body) => pick(body as B) };
}
