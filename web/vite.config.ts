/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The Rust server (`backlay serve`) serves the built client from web/dist and
// the API under /api on the same origin; in dev, Vite proxies /api, the casino
// games' art and the operator's uploaded images to it.
export default defineConfig({
  // Relative asset URLs: the client routes with hash URLs, so the built
  // index.html works wherever the server mounts it.
  base: './',
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080' },
      '/casino/art': { target: 'http://127.0.0.1:8080' },
      '/upload/image': { target: 'http://127.0.0.1:8080' },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: lets `npm run size` follow the first page's chunks.
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    // Generous for a loaded CI machine; see src/testing/setup.ts.
    testTimeout: 20_000,
    setupFiles: ['./src/testing/setup.ts'],
    // Each test starts with the real fetch and fresh mocks.
    unstubGlobals: true,
    restoreMocks: true,
    // The test files share one worker's jsdom and module cache instead of each building its
    // own: on this 2-core machine that setup was most of the run (beside the Rust tests, the
    // environment alone 175 s of 440 s; 93 s in all without it). What a test leaves behind is
    // cleared after each one (src/testing/setup.ts), and no file replaces a module (vi.mock),
    // so the files do not see each other; the suite passes in shuffled order too.
    isolate: false,
  },
});
