// Pieces for running a Vite-built page in headless Chromium and collecting what it reports: a
// node:http server on 127.0.0.1 (the built page, extra routes, POST /report) and a Chromium
// launcher with a fresh profile. Same protocol as test/cross-engine/ (the page POSTs its JSON
// result to /report); that test can import these instead of its private copies.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CONTENT_TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
};

/**
 * Serves `root` (the built page; `/` is `index`), `files` (URL path -> file on disk, streamed) and
 * collects POST /report bodies. Returns { origin, report(timeoutMs), close() }.
 */
export async function startHarnessServer({ root, index = 'index.html', files = {} }) {
  const reports = [];
  const waiting = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/report') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.writeHead(204).end();
        const report = JSON.parse(body);
        const next = waiting.shift();
        if (next) next(report);
        else reports.push(report);
      });
      return;
    }
    const headers = (type) => ({ 'content-type': type, 'cache-control': 'no-store' });
    const extra = files[url.pathname];
    if (extra) {
      res.writeHead(200, headers('application/octet-stream'));
      createReadStream(extra).pipe(res);
      return;
    }
    const file = normalize(join(root, url.pathname === '/' ? index : url.pathname));
    if (!file.startsWith(root)) return res.writeHead(403, headers('text/plain')).end('outside the page');
    readFile(file).then(
      (bytes) => res.writeHead(200, headers(CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')).end(bytes),
      () => res.writeHead(404, headers('text/plain')).end('not found'),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    /** The next report; rejects after timeoutMs. */
    report(timeoutMs) {
      if (reports.length > 0) return Promise.resolve(reports.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no report within ${timeoutMs / 1000} s`)), timeoutMs);
        waiting.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Runs fn(page) in headless Chromium (a fresh temporary profile), then closes it. */
export async function withChromium(fn) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await (await browser.newContext()).newPage();
    return await fn(page);
  } finally {
    await browser.close();
  }
}

/** Resident memory (bytes) of the descendants of process `pid` (e.g. the browser this process started), from /proc (Linux). */
export async function descendantsRss(pid = process.pid) {
  const { readdir } = await import('node:fs/promises');
  const parent = new Map();
  const rss = new Map();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  for (const [p, bytes] of rss) {
    if (p === pid) continue;
    let q = p;
    while (q > 1 && q !== pid) q = parent.get(q) ?? 0;
    if (q === pid) total += bytes;
  }
  return total;
}
