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

  it('holds a tap on a button and a choice in a list made before the app is live, and makes them again once it is', () => {
    const listeners = new Map<string, (event: unknown) => void>();
    const attributes = new Set<string>();
    let live = false;
    let clicks = 0;
    const button = {
      isConnected: true,
      disabled: false,
      setAttribute: (name: string) => attributes.add(name),
      removeAttribute: (name: string) => attributes.delete(name),
      click: () => {
        clicks += 1;
      },
    };
    const link = { closest: () => null };
    const document = {
      readyState: 'loading',
      documentElement: { hasAttribute: (name: string) => name === 'data-live' && live },
      addEventListener: (type: string, fn: (event: unknown) => void) => listeners.set(type, fn),
      removeEventListener: (type: string) => listeners.delete(type),
    };
    new Function('document', 'requestAnimationFrame', 'setTimeout', BOOT_SCRIPT)(
      document,
      () => undefined,
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
    tap(link);
    expect(stopped).toBe(0);
    tap({ closest: (selector: string) => (selector.startsWith('button') ? button : null) });
    expect({ stopped, clicks, held: attributes.has('data-held') }).toEqual({
      stopped: 1,
      clicks: 0,
      held: true,
    });
    // A choice in a list before then: made again once live (React hears its change event).
    const dispatched: string[] = [];
    const select = {
      tagName: 'SELECT',
      value: 'fr',
      isConnected: true,
      dispatchEvent: (event: Event) => dispatched.push(`${event.type}:${select.value}`),
    };
    listeners.get('change')?.({ target: select });
    select.value = 'en';
    live = true;
    listeners.get('qless-live')?.({});
    expect({
      clicks,
      dispatched,
      held: attributes.has('data-held'),
      holding: listeners.has('click') || listeners.has('change'),
    }).toEqual({ clicks: 1, dispatched: ['change:fr'], held: false, holding: false });
  });
});
