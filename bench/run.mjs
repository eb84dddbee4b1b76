#!/usr/bin/env node
// `npm run bench`: runs every benchmark module in bench/ that exports `run()` and prints one
// table of figures. Speed targets live here, never in unit tests: each module measures ratios in
// one run, because these machines are shared and noisy.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const modules = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const rows = [];
for (const file of modules) {
  const mod = await import(new URL(file, import.meta.url).href);
  if (typeof mod.run !== 'function') continue;
  process.stderr.write(`== ${file}\n`);
  for (const row of await mod.run()) rows.push({ bench: file.replace(/\.mjs$/, ''), ...row });
}

const width = Math.max(...rows.map((r) => r.name.length), 10);
console.log(`\n${'benchmark'.padEnd(width)}  ${'value'.padStart(12)}  unit`);
for (const r of rows) {
  const value = typeof r.value === 'number' ? (Math.abs(r.value) >= 100 ? r.value.toFixed(1) : r.value.toPrecision(4)) : String(r.value);
  console.log(`${r.name.padEnd(width)}  ${value.padStart(12)}  ${r.unit ?? ''}${r.target ? `   (target ${r.target})` : ''}`);
}
