import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';
import './styles/base.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// index.html holds a static header and hero so the first paint needs no JavaScript;
// React replaces it with the live page.
createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
