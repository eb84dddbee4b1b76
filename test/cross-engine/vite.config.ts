// Builds the cross-engine harness page (harness.html + harness.ts, the engine, the simulator and
// build/envsched.wasm as an asset) into the folder named by CROSS_ENGINE_OUT (a temp dir).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  // The harness reads everything it needs from the test server, never from public/.
  publicDir: false,
  build: {
    outDir: process.env.CROSS_ENGINE_OUT ?? fileURLToPath(new URL('../../node_modules/.cross-engine', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Keep the .wasm a file (never inlined as a data: URL) so it is fetched like the app fetches it.
    assetsInlineLimit: 0,
    rollupOptions: { input: fileURLToPath(new URL('./harness.html', import.meta.url)) },
  },
});
