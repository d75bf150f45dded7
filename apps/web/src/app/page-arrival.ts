/**
 * Where a page opens (seen in a trial: services → slots opened scrolled to the footer, so a phone
 * showed no slot). A new page — a new history entry, or another path in place of this one —
 * starts at its top and its heading (h1) takes focus once rendered, so a screen reader says
 * where the reader landed and Tab starts from the content. Back and Forward bring the reader
 * back to where they were on that entry, once the page is tall enough again (its data may
 * load again). A change of the query in place (a search typed, a key dropped) is the same
 * page: nothing moves.
 *
 * Entries are told apart by the Navigation API's key where the browser has it (it survives
 * replaceState), else by their address (two visits of one address share a position).
 */

/** How long a page may take to show its heading, or to grow tall enough to restore. */
const WAIT_MS = 10_000;

interface NavigationLike {
  currentEntry?: { key?: string } | null;
}

function entryKey(): string {
  const navigation = (globalThis as { navigation?: NavigationLike }).navigation;
  return navigation?.currentEntry?.key ?? `${location.pathname}${location.search}`;
}

function mainElement(): HTMLElement {
  return document.querySelector('main') ?? document.body;
}

/**
 * Runs `attempt` now and on each change of the page until it answers true, the wait is over,
 * or `stop()` is called (a newer navigation, the reader acting). Changes: DOM mutations in
 * <main> and resizes of the document (data arriving, images sizing).
 */
function untilDone(attempt: () => boolean, onTimeout: () => void = () => {}): () => void {
  let done = false;
  const observer = new MutationObserver(() => check());
  const resize = new ResizeObserver(() => check());
  const timer = setTimeout(() => {
    if (!done) onTimeout();
    stop();
  }, WAIT_MS);
  function stop() {
    if (done) return;
    done = true;
    observer.disconnect();
    resize.disconnect();
    clearTimeout(timer);
  }
  function check() {
    if (!done && attempt()) stop();
  }
  observer.observe(mainElement(), { childList: true, subtree: true });
  resize.observe(document.documentElement);
  // React renders the new location in a microtask after the history call: look then.
  queueMicrotask(check);
  return stop;
}

/**
 * Follows the app's history moves (wouter's pushState/replaceState events, popstate) from
 * now on; returns the function that stops. Call once the app is live (before, links load
 * pages as the browser does).
 */
export function followPageArrivals(): () => void {
  const positions = new Map<string, number>();
  let current = entryKey();
  let path = location.pathname;
  let pending: (() => void)[] = [];

  const cancel = () => {
    for (const stop of pending) stop();
    pending = [];
  };

  const onScroll = () => positions.set(current, scrollY);

  /** A new page: its top, then its heading once it shows. */
  const arriveNew = () => {
    cancel();
    scrollTo(0, 0);
    const before = document.activeElement;
    const stale = mainElement().querySelector('h1');
    let firstLook = true;
    pending.push(
      untilDone(() => {
        // While the new page's code loads, React keeps the old page in the DOM, hidden
        // (display: none) behind the fallback: only a heading that is shown counts.
        const heading = [...mainElement().querySelectorAll('h1')].find(
          (h) => h.getClientRects().length > 0,
        );
        // On the first look the old page may not have been rendered away yet.
        const old = firstLook && heading === stale;
        firstLook = false;
        if (!heading || old) return false;
        const active = document.activeElement;
        // The reader moved focus meanwhile (typed in a field): leave it where they put it.
        const untouched =
          active === null || active === before || active === document.body || !active.isConnected;
        if (!untouched) return true;
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
        return document.activeElement === heading;
      }),
    );
  };

  /** Back or Forward: where the reader was on that entry, once the page is that tall. */
  const arriveBack = (target: number) => {
    cancel();
    const reachable = () => document.documentElement.scrollHeight - innerHeight;
    const stopRestore = untilDone(
      () => {
        if (reachable() < target) return false;
        scrollTo(0, target);
        return true;
      },
      () => scrollTo(0, Math.min(target, Math.max(0, reachable()))),
    );
    pending.push(stopRestore);
    // The reader scrolling or tapping meanwhile wins over the restore.
    const interrupt = () => stopRestore();
    for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const) {
      addEventListener(type, interrupt, { once: true, passive: true });
      pending.push(() => removeEventListener(type, interrupt));
    }
  };

  const onPush = () => {
    // Still the page being left (React renders the new location after this event).
    positions.set(current, scrollY);
    current = entryKey();
    path = location.pathname;
    arriveNew();
  };
  const onReplace = () => {
    const key = entryKey();
    if (key !== current) positions.set(key, positions.get(current) ?? scrollY);
    current = key;
    if (location.pathname === path) return;
    // Another path in place of this page (an invitation spent, another organization chosen).
    path = location.pathname;
    arriveNew();
  };
  const onPop = () => {
    current = entryKey();
    path = location.pathname;
    arriveBack(positions.get(current) ?? 0);
  };

  addEventListener('scroll', onScroll, { passive: true });
  addEventListener('pushState', onPush);
  addEventListener('replaceState', onReplace);
  addEventListener('popstate', onPop);
  return () => {
    cancel();
    removeEventListener('scroll', onScroll);
    removeEventListener('pushState', onPush);
    removeEventListener('replaceState', onReplace);
    removeEventListener('popstate', onPop);
  };
}
