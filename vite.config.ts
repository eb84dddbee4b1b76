import { defineConfig, type Plugin } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { datasetsPlugin } from './src/ui/build/datasets-plugin.ts';

/**
 * The built site's Content-Security-Policy (docs/reliability.md, "Content-Security-Policy"). Scripts
 * only from the site itself: no 'unsafe-eval', no 'unsafe-inline'. 'wasm-unsafe-eval' allows
 * compiling WebAssembly (nothing else); workers are same-origin module scripts (blob: for
 * browsers that wrap them). Styles may be inline: Svelte writes style attributes. Build only: the
 * dev server injects inline scripts for hot reloading.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'envsched-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
      ],
    },
  };
}

export default defineConfig({
  // Relative asset paths: the built site works from any static file server or sub-folder.
  base: './',
  plugins: [svelte(), datasetsPlugin(), contentSecurityPolicy()],
  worker: { format: 'es' },
  build: { outDir: 'site', target: 'es2022' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two test files at a time. Vitest's default is one fewer than the cores, which on the 2-core CI
    // machine ran the files one by one (14 min); most files wait on child processes and browsers,
    // so two halve the wall time (docs/architecture.md, "Build and test").
    maxWorkers: 2,
  },
});
