import { describe, expect, it } from 'vitest';
import { inlineStylesheets, lowerScriptPriority } from './inline-css';

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

describe('lowerScriptPriority', () => {
  it('marks the module script and its modulepreloads low priority, not other tags', () => {
    const html = lowerScriptPriority(HEAD);
    expect(html).toContain(
      '<script type="module" crossorigin src="/assets/index-D80Zyio9.js" fetchpriority="low"></script>',
    );
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-XKyaHtl9.js" fetchpriority="low">',
    );
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/style-CSJFU9Ui.css">');
  });

  it('keeps a priority already given, and leaves inline scripts alone', () => {
    const head =
      '<script type="module" src="/a.js" fetchpriority="high"></script><script type="application/json">{}</script>';
    expect(lowerScriptPriority(head)).toBe(head);
  });
});
