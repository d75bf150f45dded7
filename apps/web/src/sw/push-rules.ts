/**
 * Web push in the service worker (decision 142): what a push must carry to be shown, and where
 * its receipt goes. Pure, so that it is tested without a worker.
 */

/** Where the worker says a push was shown: only that counts as delivered. */
export const PUSH_SHOWN_URL = '/api/v1/push/shown';

export interface ShownPush {
  title: string;
  body: string;
  /** On this site only: a tap opens it. */
  url: string;
  tag: string;
  receipt: string;
}

/** The push as sent by the server, or null for anything else (nothing is shown then). */
export function readPush(data: unknown, origin: string): ShownPush | null {
  if (typeof data !== 'object' || data === null) return null;
  const p = data as Record<string, unknown>;
  const fields = ['title', 'body', 'url', 'tag', 'receipt'] as const;
  if (!fields.every((f) => typeof p[f] === 'string' && (p[f] as string).length > 0)) return null;
  let url: URL;
  try {
    url = new URL(p.url as string, origin);
  } catch {
    return null;
  }
  // A push opens one of our pages, never another site.
  if (url.origin !== origin) return null;
  return {
    title: p.title as string,
    body: p.body as string,
    url: url.href,
    tag: p.tag as string,
    receipt: p.receipt as string,
  };
}
