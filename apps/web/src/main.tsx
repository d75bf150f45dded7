import { LIVE_EVENT } from '@qless/contract/web-page';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { adoptHashRoute, interceptLinkClicks } from './app/location';
import { followPageArrivals } from './app/page-arrival';
import { AppProvider } from './app/provider';
import { AppRouter, preloadRoute } from './app/router';
import { reloadOnceForNewBuild } from './app/stale-build';
import { browserLocale, ensureLocale, isLocale, type Locale } from './i18n/i18n';
import { serverRendered } from './lib/embedded-data';
// The global stylesheet, split by concern. Keep this order: it is the cascade order (for
// instance motion.css must follow the hero and spinner rules it switches off).
import './styles/tokens.css';
import './styles/base.css';
import './styles/buttons.css';
import './app/layout/header.css';
import './features/landing/components/hero.css';
import './features/landing/components/landing.css';
import './app/layout/footer.css';
import './styles/page.css';
import './styles/forms.css';
import './styles/navigation.css';
import './styles/motion.css';

// A chunk's preload failed because a deploy removed it (decision 027): the new build, once.
addEventListener('vite:preloadError', (event) => {
  void reloadOnceForNewBuild((event as Event & { payload?: unknown }).payload);
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// A spec or message link (`/#/x?y`) becomes `/x?y` before anything renders; the server
// rendered `/` for it, so that page is rendered afresh rather than hydrated.
const rendered = location.pathname + location.search;
adoptHashRoute();
const hydrating = serverRendered() && location.pathname + location.search === rendered;
// Until the app is live, the server's markup stays as the server wrote it: links load their
// page as the browser does, and a hash link only changes the fragment. Taking over link
// clicks or adopting a hash route before then would move the location under the hydration.
document.addEventListener(
  LIVE_EVENT,
  () => {
    adoptHashRoute();
    interceptLinkClicks();
    // A page opened in the app starts at its top with its heading focused; Back restores.
    followPageArrivals();
    // A hash link followed from a page of the app changes only the fragment: same treatment.
    addEventListener('hashchange', adoptHashRoute);
  },
  { once: true },
);

// Hydrating: the first render uses the language the server rendered in (no mismatch).
const lang = document.documentElement.lang;
const servedLocale: Locale | undefined = hydrating && isLocale(lang) ? lang : undefined;
const app = (
  <StrictMode>
    <AppProvider {...(servedLocale ? { locale: servedLocale } : {})}>
      <AppRouter />
    </AppProvider>
  </StrictMode>
);
// French messages are their own chunk: the language of the first render is loaded first
// (English, already here, if the chunk cannot be had). With it, the page's chunk (the server
// linked it as modulepreload, so it is on its way): hydration then never waits on it with
// the server's markup dead to taps.
const messages = ensureLocale(servedLocale ?? browserLocale()).catch(() => undefined);
if (hydrating)
  void Promise.all([messages, preloadRoute(location.pathname)]).then(() => {
    // Hydrated only if the address is still the one the server rendered. Nothing of the app
    // moves it before then (links and hash routes wait for live); a guard, not a path.
    // Hydration as a transition: React does it in slices of a few milliseconds that let the
    // phone paint and take taps between them, not in one long task (decision 115).
    if (location.pathname + location.search === rendered)
      startTransition(() => {
        hydrateRoot(root, app);
      });
    else createRoot(root).render(app);
  });
else void messages.then(() => createRoot(root).render(app));
