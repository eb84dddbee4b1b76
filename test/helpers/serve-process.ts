// `envsched serve` as a real child process, spoken to over stdio (one JSON line each way).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLI } from './dist.ts';

export interface ServeResponse {
  v: 1;
  id?: string | number;
  ok: boolean;
  op?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads whichever result it asked for
  result?: any;
  error?: { source: string; place: string; problem: string };
}

export class ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((r: ServeResponse) => void)[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(JSON.parse(line) as ServeResponse));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Sends raw text as one request line (it may be anything, valid JSON or not). */
  sendRaw(text: string): Promise<ServeResponse> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(`${text}\n`);
    });
  }

  send(request: Record<string, unknown>): Promise<ServeResponse> {
    return this.sendRaw(JSON.stringify(request));
  }

  /** Sends and fails the test with the server's error if the answer is not ok. */
  async ok(request: Record<string, unknown>): Promise<ServeResponse> {
    const r = await this.send(request);
    if (!r.ok) throw new Error(`${JSON.stringify(request).slice(0, 200)} -> ${JSON.stringify(r.error)}`);
    return r;
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      await this.send({ op: 'shutdown' });
      await this.exited;
    }
  }
}
