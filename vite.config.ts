import path from 'node:path';
import { defineConfig } from 'vite';

// The React renderer (renderer/) builds to dist/renderer, loaded by the Electron window from
// disk and served by `kioku daemon --web` in headless mode; relative asset URLs work for both.
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer'),
  base: './',
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist', 'renderer'),
    emptyOutDir: true,
    target: 'chrome130',
  },
});
