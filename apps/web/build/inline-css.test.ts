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
});
