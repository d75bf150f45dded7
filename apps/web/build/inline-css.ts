/**
 * Build-time rewriting of the built index.html for the first paint on a slow network
 * (decision 108): the one stylesheet goes inline, and the app's JavaScript is marked as
 * not needed for that paint.
 */

/** `<link rel="stylesheet" … href="…">` as Vite writes it (attributes in any order). */
const STYLESHEET_LINK = /<link\b[^>]*\brel=["']?stylesheet["']?[^>]*>/gi;
const HREF = /\bhref=["']?([^"'\s>]+)["']?/i;

/**
 * Replaces each `<link rel="stylesheet">` whose href `readCss` knows with a `<style>` holding
 * that CSS; links to other stylesheets are left as they are.
 */
export function inlineStylesheets(
  html: string,
  readCss: (href: string) => string | undefined,
): { html: string; inlined: string[] } {
  const inlined: string[] = [];
  const out = html.replace(STYLESHEET_LINK, (link) => {
    const href = HREF.exec(link)?.[1];
    if (!href) return link;
    const css = readCss(href);
    if (css === undefined) return link;
    // `</style` inside the CSS (a string or comment) would end the element early.
    if (/<\/style/i.test(css)) throw new Error(`${href} contains "</style": cannot inline it`);
    inlined.push(href);
    return `<style>${css.trim()}</style>`;
  });
  return { html: out, inlined };
}

const MODULE_SCRIPT = /<script\b(?=[^>]*\btype=["']?module["']?)[^>]*\bsrc=[^>]*>/gi;
const MODULE_PRELOAD = /<link\b(?=[^>]*\brel=["']?modulepreload["']?)[^>]*>/gi;

/**
 * Adds `fetchpriority="low"` to the module script and its modulepreload links. The page paints
 * from HTML and CSS alone; a module script never blocks rendering in a browser, but Lighthouse's
 * simulation counts any High-priority script fetched before the first paint as render-blocking.
 */
export function lowerScriptPriority(html: string): string {
  const mark = (tag: string) =>
    /\bfetchpriority=/i.test(tag)
      ? tag
      : tag.replace(/\s*\/?>$/, (end) => ` fetchpriority="low"${end}`);
  return html.replace(MODULE_SCRIPT, mark).replace(MODULE_PRELOAD, mark);
}
