import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { datasetsPlugin } from './src/ui/build/datasets-plugin.ts';

export default defineConfig({
  // Relative asset paths: the built site works from any static file server or sub-folder.
  base: './',
  plugins: [svelte(), datasetsPlugin()],
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
  },
});
