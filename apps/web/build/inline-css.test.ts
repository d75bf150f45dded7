import { describe, expect, it } from 'vitest';
import { BOOT_SCRIPT, deferScripts, inlineStylesheets } from './inline-css';

// The head as Vite 8 writes it for this app.
const HEAD = `<title>Qless</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <script type="module" crossorigin src="/assets/index-D80Zyio9.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-XKyaHtl9.js">
    <link rel="stylesheet" crossorigin href="/assets/style-CSJFU9Ui.css">
  </head>`;

describe('inlineStylesheets', () => {
  it('replaces the stylesheet link with a <style> holding its CSS, and nothing else', () => {
    const { html, inlined } = inlineStylesheets(HEAD, (href) =>
      href === '/assets/style-CSJFU9Ui.css' ? 'a{color:red}\n' : undefined,
    );
    expect(inlined).toEqual(['/assets/style-CSJFU9Ui.css']);
    expect(html).toBe(
      HEAD.replace(
        '<link rel="stylesheet" crossorigin href="/assets/style-CSJFU9Ui.css">',
        '<style>a{color:red}</style>',
      ),
    );
  });

  it('leaves a stylesheet it cannot read (another origin, unknown file) linked', () => {
    const head =
      '<link href="https://cdn.example/x.css" rel=stylesheet><link rel="icon" href="/i">';
    const { html, inlined } = inlineStylesheets(head, () => undefined);
    expect({ html, inlined }).toEqual({ html: head, inlined: [] });
  });

  it('refuses CSS that would close the <style> element early', () => {
    expect(() =>
      inlineStylesheets(HEAD, () => 'a::after{content:"</style><script>x()</script>"}'),
    ).toThrow(/<\/style/);
  });
});

describe('deferScripts', () => {
  it('names the module script and its modulepreloads in metas, and adds the boot instead', () => {
    const html = deferScripts(HEAD);
    expect(html).not.toMatch(/<script type="module"/);
    expect(html).not.toMatch(/rel="modulepreload"/);
    expect(html).toContain('<meta name="qless-module" content="/assets/index-D80Zyio9.js">');
    expect(html).toContain(
      '<meta name="qless-preload" content="/assets/rolldown-runtime-XKyaHtl9.js">',
    );
    expect(html).toContain(`<script>${BOOT_SCRIPT}</script></head>`);
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
  });

  it('refuses a page without a module script (the app would never start)', () => {
    expect(() => deferScripts('<head></head>')).toThrow(/no module script/);
  });

  it('the boot loads what the metas name, once, after a frame', async () => {
    const appended: Record<string, string>[] = [];
    const element = () => ({}) as Record<string, string>;
    const metas = {
      'meta[name="qless-preload"]': [{ content: '/assets/a.js' }, { content: '/assets/b.js' }],
    };
    const document = {
      readyState: 'interactive',
      head: { appendChild: (node: Record<string, string>) => appended.push(node) },
      createElement: element,
      querySelectorAll: (q: keyof typeof metas) => metas[q] ?? [],
      querySelector: () => ({ content: '/assets/index.js' }),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
    let frame: (() => void) | undefined;
    const timers: (() => void)[] = [];
    new Function('document', 'requestAnimationFrame', 'setTimeout', BOOT_SCRIPT)(
      document,
      (fn: () => void) => {
        frame = fn;
      },
      (fn: () => void) => timers.push(fn),
    );
    expect(appended).toEqual([]);
    frame?.();
    for (const run of timers) run();
    expect(appended.map((n) => [n.rel ?? n.type, n.href ?? n.src])).toEqual([
      ['modulepreload', '/assets/a.js'],
      ['modulepreload', '/assets/b.js'],
      ['module', '/assets/index.js'],
    ]);
  });

  it('where the browser reports paints, the boot waits for the first contentful one', () => {
    const appended: string[] = [];
    const document = {
      readyState: 'interactive',
      head: {
        appendChild: (node: { href?: string; src?: string }) =>
          appended.push(node.href ?? node.src ?? ''),
      },
      createElement: () => ({}),
      querySelectorAll: () => [{ content: '/assets/a.js' }],
      querySelector: () => ({ content: '/assets/index.js' }),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
    type Entries = { getEntriesByName: (name: string) => unknown[] };
    const observer: { paints: ((list: Entries) => void) | null } = { paints: null };
    const observed: unknown[] = [];
    class PaintObserver {
      static supportedEntryTypes = ['paint', 'resource'];
      constructor(fn: (list: Entries) => void) {
        observer.paints = fn;
      }
      observe(options: unknown) {
        observed.push(options);
      }
      disconnect() {
        observer.paints = null;
      }
    }
    const frames: (() => void)[] = [];
    const timers: [() => void, number][] = [];
    new Function(
      'document',
      'requestAnimationFrame',
      'setTimeout',
      'PerformanceObserver',
      BOOT_SCRIPT,
    )(
      document,
      (fn: () => void) => frames.push(fn),
      (fn: () => void, ms: number) => timers.push([fn, ms]),
      PaintObserver,
    );
    expect(frames).toEqual([]);
    expect(observed).toEqual([{ type: 'paint', buffered: true }]);
    // The first paint (not contentful) changes nothing; the contentful one starts the load.
    observer.paints?.({ getEntriesByName: (name) => (name === 'first-paint' ? [{}] : []) });
    expect(appended).toEqual([]);
    const contentful = observer.paints;
    contentful?.({
      getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []),
    });
    // Then two frames and a task.
    expect(observer.paints).toBeNull();
    expect(appended).toEqual([]);
    for (let i = 0; i < 2; i++) frames.shift()?.();
    for (const [run, ms] of timers) if (ms === 0) run();
    expect(appended).toEqual(['/assets/a.js', '/assets/index.js']);
    // The second's fallback finds it done.
    for (const [run, ms] of timers) if (ms === 1000) run();
    expect(appended).toHaveLength(2);
  });

  /** The boot in a fake document; `timers` are its setTimeout callbacks, by delay. */
  function boot() {
    const listeners = new Map<string, (event: unknown) => void>();
    const timers: [number, () => void][] = [];
    const document = {
      readyState: 'loading',
      addEventListener: (type: string, fn: (event: unknown) => void) => listeners.set(type, fn),
      removeEventListener: (type: string) => listeners.delete(type),
    };
    new Function('document', 'requestAnimationFrame', 'setTimeout', 'clearTimeout', BOOT_SCRIPT)(
      document,
      () => undefined,
      (fn: () => void, ms: number) => timers.push([ms, fn]),
      () => undefined,
    );
    let stopped = 0;
    const tap = (target: unknown) =>
      listeners.get('click')?.({
        target,
        preventDefault: () => undefined,
        stopPropagation: () => {
          stopped += 1;
        },
      });
    const button = (disabled = false) => {
      const attributes = new Set<string>();
      const b = {
        isConnected: true,
        disabled,
        clicks: 0,
        attributes,
        setAttribute: (name: string) => attributes.add(name),
        removeAttribute: (name: string) => attributes.delete(name),
        click: () => {
          b.clicks += 1;
        },
      };
      return b;
    };
    const on = (target: unknown) => ({
      closest: (selector: string) => (selector.startsWith('button') ? target : null),
    });
    const run = (ms: number) => {
      for (const [delay, fn] of timers.splice(0)) if (delay === ms) fn();
    };
    return { listeners, tap, button, on, run, stopped: () => stopped };
  }

  it('holds the last tap on a button and each choice in a list until the app is live, then makes them again', () => {
    const { listeners, tap, button, on, run, stopped } = boot();
    const first = button();
    const last = button();
    tap({ closest: () => null });
    expect(stopped()).toBe(0);
    tap(on(first));
    tap(on(last));
    expect(stopped()).toBe(2);
    // Only the last tap is held (and shown pressed).
    expect([first.attributes.has('data-held'), last.attributes.has('data-held')]).toEqual([
      false,
      true,
    ]);
    const dispatched: string[] = [];
    const select = (value: string) => {
      const s = {
        tagName: 'SELECT',
        value,
        isConnected: true,
        dispatchEvent: (event: Event) => dispatched.push(`${event.type}:${s.value}`),
      };
      return s;
    };
    const language = select('fr');
    const other = select('b');
    listeners.get('change')?.({ target: language });
    listeners.get('change')?.({ target: other });
    language.value = 'en';
    other.value = 'a';
    listeners.get('qless-live')?.({});
    // After main.tsx's own listeners of the event: on the next task.
    expect(last.clicks).toBe(0);
    run(0);
    expect({
      clicks: [first.clicks, last.clicks],
      dispatched,
      held: last.attributes.has('data-held'),
      holding: listeners.has('click') || listeners.has('change'),
    }).toEqual({
      clicks: [0, 1],
      dispatched: ['change:fr', 'change:b'],
      held: false,
      holding: false,
    });
  });

  it('taps no button that was disabled or removed meanwhile', () => {
    const { listeners, tap, button, on, run } = boot();
    const gone = button();
    tap(on(gone));
    gone.isConnected = false;
    listeners.get('qless-live')?.({});
    run(0);
    expect(gone.clicks).toBe(0);
    const again = boot();
    const disabled = button(true);
    again.tap(again.on(disabled));
    again.listeners.get('qless-live')?.({});
    again.run(0);
    expect(disabled.clicks).toBe(0);
  });

  it('leaves taps to the page again when the app has not come after 20 s', () => {
    const { listeners, tap, button, on, run, stopped } = boot();
    const b = button();
    tap(on(b));
    run(20_000);
    expect({ held: b.attributes.has('data-held'), holding: listeners.has('click') }).toEqual({
      held: false,
      holding: false,
    });
    listeners.get('qless-live')?.({});
    run(0);
    expect({ clicks: b.clicks, stopped: stopped() }).toEqual({ clicks: 0, stopped: 1 });
  });
});
