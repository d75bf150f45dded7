import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';
import { browserLocale, ensureLocale } from './i18n/i18n';
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

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// index.html holds a static header and hero so the first paint needs no JavaScript;
// React replaces it with the live page.
// French messages are their own chunk: load the reader's language first, so the first render
// is in it (English, already here, if the chunk cannot be had).
ensureLocale(browserLocale())
  .catch(() => undefined)
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProvider>
          <AppRouter />
        </AppProvider>
      </StrictMode>,
    ),
  );
