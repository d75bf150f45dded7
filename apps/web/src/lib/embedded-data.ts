import { createContext, useContext } from 'react';

/**
 * What the server rendered a page with (decision 107): the first API answers of the page,
 * keyed by API path and query exactly as the web app asks them, and the time it rendered at
 * (so "now"-dependent markup hydrates identically). The server passes it through the context;
 * the browser reads it once from `<script type="application/json" id="qless-data">`.
 */
export interface EmbeddedData {
  /** ISO time the server rendered at. */
  now?: string;
  api: Record<string, unknown>;
  /** Answers that were errors (an unknown id's 404), as the API's error body said. */
  errors?: Record<string, { status: number; code: string | null; message: string }>;
}

export const EMBEDDED_DATA_ID = 'qless-data';

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

/** `pick` reads the answer as the API's type `B` (the server wrote it from the same route). */
export function embedded<B, T>(path: string, pick: (body: B) => T): Embedded<T> {
  return { path, pick: (body) => pick(body as B) };
}
