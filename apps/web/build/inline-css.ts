/**
 * Build-time rewriting of the built index.html for the first paint on a slow network
 * (decision 108): the one stylesheet goes inline, and the app's JavaScript is marked as
 * not needed for that paint.
 */

import { LIVE_EVENT, PRELOAD_META } from '@qless/contract/web-page';

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

const MODULE_PRELOAD = /<link\b(?=[^>]*\brel=["']?modulepreload["']?)[^>]*>/gi;

const MODULE_SCRIPT_ELEMENT =
  /<script\b(?=[^>]*\btype=["']?module["']?)[^>]*\bsrc=[^>]*>\s*<\/script>/gi;
const SRC = /\bsrc=["']?([^"'\s>]+)["']?/i;

/**
 * The boot: an inline script (allowed by its hash in the CSP) that, once the page has painted,
 * asks for the app's JavaScript the build and the server named in `<meta name="qless-module">`
 * and `<meta name="qless-preload">`. Its text never changes between builds.
 *
 * Until the app is live (it dispatches `qless-live` on the document once hydrated), a tap on a
 * button would do nothing: the boot holds the last one (marked `data-held`, shown pressed)
 * and taps it again once the app is live; a choice in a list (the language) is made again
 * the same way. If the app has not come after 20 s (or its script failed), taps are left to
 * the page again. Links need no help: they work without the app. (`data-held` is an
 * attribute React did not render: its development build warns about it on hydration.)
 *
 * Why after the paint (decision 108): on a 700 Kbps link the HTML is the page, and scripts
 * fetched beside it only slow it down; Lighthouse's simulation agrees, counting every script
 * that finished loading before the largest paint as needed for it. "After the paint" is the
 * first contentful paint as the browser reports it (a `paint` PerformanceObserver): a frame
 * (requestAnimationFrame, then a task) was not enough, since Chromium's first frame is not
 * always its contentful one, and in those loads the scripts started before it; Lighthouse
 * then counted them in the paint, and 2G's LCP went from 3.3 s to 4.5–10 s in one run of
 * three (decision 112). Browsers without paint timing keep the frame.
 */
export const BOOT_SCRIPT = [
  '(function(){var d=document,done=false;',
  // Loads what the metas name, once.
  `function go(){if(done)return;done=true;var h=d.head;d.querySelectorAll('meta[name="${PRELOAD_META}"]').forEach(function(m){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=m.content;h.appendChild(l)});var e=d.querySelector('meta[name="qless-module"]');if(e){var s=d.createElement('script');s.type='module';s.crossOrigin='';s.src=e.content;s.onerror=giveUp;h.appendChild(s)}}`,
  // After the first contentful paint where the browser reports it, else after a frame; in
  // any case within a second (a page opened in the background paints only when shown).
  'function frame(){requestAnimationFrame(function(){setTimeout(go,0)})}',
  "function later(){setTimeout(go,1000);var P=typeof PerformanceObserver==='function'?PerformanceObserver:null;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){try{var o=new P(function(l){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();requestAnimationFrame(frame)}});o.observe({type:'paint',buffered:true})}catch(_){frame()}}else frame()}",
  // Holds the last tap on a button and each choice in a list until the app is live.
  'var live=false,held=null,chosen=new Map();',
  "function hold(e){var t=e.target;t=t&&t.closest&&t.closest('button,[role=\"button\"],input[type=\"submit\"],input[type=\"button\"]');if(!t||live)return;e.preventDefault();e.stopPropagation();if(held)held.removeAttribute('data-held');held=t;t.setAttribute('data-held','')}",
  "function choose(e){var t=e.target;if(!live&&t&&t.tagName==='SELECT')chosen.set(t,t.value)}",
  "function stop(){d.removeEventListener('click',hold,true);d.removeEventListener('change',choose,true);if(held)held.removeAttribute('data-held')}",
  // The app did not come (its script failed, or it is very late): taps are the page's again.
  'function giveUp(){if(live)return;live=true;stop();held=null;chosen=new Map()}',
  "d.addEventListener('click',hold,true);d.addEventListener('change',choose,true);var patience=setTimeout(giveUp,20000);",
  // Once live (after main.tsx's own listeners of the event): the choices, then the tap.
  `d.addEventListener('${LIVE_EVENT}',function(){if(live)return;live=true;clearTimeout(patience);stop();var t=held,c=chosen;held=null;chosen=new Map();setTimeout(function(){c.forEach(function(v,s){if(s.isConnected){s.value=v;s.dispatchEvent(new Event('change',{bubbles:true}))}});if(t&&t.isConnected&&!t.disabled)t.click()},0)});`,
  "if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',later);else later()})();",
].join('');

/**
 * Replaces the module script and its modulepreload links with metas naming them, and adds the
 * boot that loads them after the first paint.
 */
export function deferScripts(html: string): string {
  let entry: string | undefined;
  const preloads: string[] = [];
  let out = html.replace(MODULE_SCRIPT_ELEMENT, (tag) => {
    entry = SRC.exec(tag)?.[1];
    return '';
  });
  out = out.replace(MODULE_PRELOAD, (tag) => {
    const href = HREF.exec(tag)?.[1];
    if (href) preloads.push(href);
    return '';
  });
  if (!entry) throw new Error('index.html has no module script to defer');
  const metas = [
    `<meta name="qless-module" content="${entry}">`,
    ...preloads.map((href) => `<meta name="${PRELOAD_META}" content="${href}">`),
  ].join('');
  return out.replace('</head>', `${metas}<script>${BOOT_SCRIPT}</script></head>`);
}
