/**
 * A deploy replaces the built chunks: a page loaded before it asks for names the server no
 * longer has (decision 027). Such a page reloads itself once, on the same address, and the
 * server answers with the new build. sessionStorage remembers the reload, so a build that
 * really lacks a chunk shows the route's error and Retry instead of reloading again and again.
 */
const RELOADED_AT = 'qless:stale-build-reload';
/** A second deploy within this time of the last reload gets Retry, not another reload. */
const GUARD_MS = 5 * 60_000;

/** A failed import of a built chunk (Chromium, Firefox, Safari; Vite's CSS preload). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * Whether the server answers at all (any status): then reloading the page shows it. While it
 * does not (offline, server down), a reload would trade this page for the browser's own
 * error page, so the reader stays where they are with Retry.
 */
export async function serverAnswers(): Promise<boolean> {
  try {
    await fetch(location.href, { cache: 'no-store', headers: { accept: 'text/html' } });
    return true;
  } catch {
    return false;
  }
}

/** The address of the chunk an import error names (Chromium and Firefox name it). */
function chunkUrl(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error ?? '');
  const found = /(?:https?:\/\/[^\s'"]+|\/assets\/[^\s'"]+)/.exec(message);
  return found ? found[0] : null;
}

/**
 * Whether the failure is a deploy's: the server answers and no longer has the chunk (a 404).
 * Offline, or a chunk still there, is not (the route's Retry is for those). Without the
 * chunk's address (Safari's message has none): whether the server answers at all.
 */
async function chunkGone(error: unknown): Promise<boolean> {
  const url = chunkUrl(error);
  if (!url) return serverAnswers();
  try {
    return (await fetch(url, { cache: 'no-store' })).status === 404;
  } catch {
    return false;
  }
}

let pending: Promise<boolean> | null = null;

/**
 * Reloads the page (same address) when a deploy removed the chunk that failed, unless it did
 * so a moment ago. Settles with whether it reloads.
 */
export function reloadOnceForNewBuild(error: unknown): Promise<boolean> {
  pending ??= (async () => {
    let last: number;
    try {
      last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    } catch {
      // No storage to remember the reload in: no reload (it could repeat).
      return false;
    }
    if (Date.now() - last < GUARD_MS) return false;
    if (!(await chunkGone(error))) return false;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    location.reload();
    return true;
  })().then((reloads) => {
    // Offline, or guarded now: a later failure may ask again.
    if (!reloads) pending = null;
    return reloads;
  });
  return pending;
}
