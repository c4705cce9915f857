import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The React renderer (renderer/) builds to dist/renderer, loaded by the Electron window from
// disk and served by `kioku daemon --web` in headless mode; relative asset URLs work for both.
// No inline scripts or styles end up in index.html: both hosts send a CSP without 'unsafe-inline'.
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist', 'renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    // The CSP forbids data: scripts; keep every asset a file of its own.
    assetsInlineLimit: 0,
    // Source maps would ship the sources to every browser tab; the app is read from dist only.
    sourcemap: false,
  },
});
