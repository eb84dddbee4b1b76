// The two transports of `envsched serve`: JSON Lines over a byte stream (stdio), and HTTP on a
// loopback address with the same request bodies. Requests are handled one at a time, in order.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Readable } from 'node:stream';
import { InputError } from '../engine/errors.ts';
import { MAX_REQUEST_BYTES, type Handled, type ServeSession } from './session.ts';

function tooLarge(what: string): Handled {
  return {
    response: {
      v: 1,
      ok: false,
      error: { source: what, place: '(request)', problem: `the request is larger than ${MAX_REQUEST_BYTES} bytes and was not read` },
    },
    shutdown: false,
  };
}

/**
 * Answers one JSON line per request line until the input ends or a shutdown request. A line over
 * MAX_REQUEST_BYTES is skipped (without holding it in memory) and answered with an error.
 */
export function serveLines(session: ServeSession, input: Readable, write: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let parts: Buffer[] = [];
    let size = 0;
    let skipping = false;
    let queue = Promise.resolve();
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      input.removeListener('data', onData);
      input.pause();
      resolve();
    };
    const submit = (work: () => Promise<Handled>) => {
      queue = queue.then(async () => {
        if (stopped) return;
        const handled = await work();
        write(`${JSON.stringify(handled.response)}\n`);
        if (handled.shutdown) stop();
      });
    };
    const onData = (chunk: Buffer) => {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        const end = nl === -1 ? chunk.length : nl;
        if (!skipping) {
          size += end - start;
          if (size > MAX_REQUEST_BYTES) {
            skipping = true;
            parts = [];
          } else parts.push(chunk.subarray(start, end));
        }
        if (nl === -1) break;
        if (skipping) submit(async () => tooLarge('request'));
        else {
          const text = Buffer.concat(parts).toString('utf8').replace(/\r$/, '');
          if (text.trim() !== '') submit(() => session.handle(text));
        }
        parts = [];
        size = 0;
        skipping = false;
        start = nl + 1;
      }
    };
    input.on('data', onData);
    input.on('end', () => void queue.then(stop));
    input.on('error', () => void queue.then(stop));
  });
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Parses `--listen host:port`; only loopback addresses are allowed (the server has no authentication). */
export function parseListen(text: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text);
  if (!m) throw new InputError('command line', '--listen', `must be HOST:PORT (e.g. 127.0.0.1:8765), got ${JSON.stringify(text)}`);
  const host = m[1].replace(/^\[|\]$/g, '');
  const port = Number(m[2]);
  if (!LOOPBACK.has(host))
    throw new InputError(
      'command line',
      '--listen',
      `must be a loopback address (127.0.0.1, ::1 or localhost): the server has no authentication, got ${JSON.stringify(host)}`,
    );
  if (port > 65535) throw new InputError('command line', '--listen', `port must be in [0, 65535], got ${port}`);
  return { host, port };
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) over = true;
      else parts.push(chunk);
    });
    request.on('end', () => resolve(over ? null : Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

/** HTTP: POST a request body to any path, get the response body back (200 ok, 400 bad request). */
export function serveHttp(session: ServeSession, host: string, port: number, onShutdown: () => void): Promise<Server> {
  let queue = Promise.resolve();
  const server = createServer((request, response) => {
    const reply = (handled: Handled) => {
      const body = JSON.stringify(handled.response);
      response.writeHead(handled.response.ok ? 200 : 400, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body, () => {
        if (handled.shutdown) onShutdown();
      });
    };
    if (request.method !== 'POST') {
      reply({
        response: {
          v: 1,
          ok: false,
          error: { source: 'http', place: 'method', problem: `send requests with POST, got ${request.method}` },
        },
        shutdown: false,
      });
      return;
    }
    readBody(request).then(
      (text) => {
        queue = queue.then(async () => reply(text === null ? tooLarge('http') : await session.handle(text)));
      },
      () => response.destroy(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
