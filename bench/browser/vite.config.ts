// Builds the browser simulation bench page (index.html + sim-page.ts, the engine, the simulator and
// build/envsched.wasm as an asset) into BENCH_BROWSER_OUT (a temp dir; run-chromium.mjs sets it).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  publicDir: false,
  build: {
    outDir: process.env.BENCH_BROWSER_OUT ?? fileURLToPath(new URL('../../node_modules/.bench-browser', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0, // the .wasm stays a file, fetched like the app fetches it
    rollupOptions: { input: fileURLToPath(new URL('./index.html', import.meta.url)) },
  },
});
