import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { buildStamp, SSR_STAMP } from './build/build-stamp';

/**
 * The server-rendering bundle (decision 107): src/entry-server.tsx for Node, next to the
 * browser build and outside `dist` (which is served as it is). React, react-dom and wouter
 * stay imports of node_modules; the workspace contract is bundled.
 */
export default defineConfig({
  plugins: [react(), buildStamp(SSR_STAMP)],
  build: {
    ssr: 'src/entry-server.tsx',
    outDir: 'dist-ssr',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: false,
    copyPublicDir: false,
  },
});
