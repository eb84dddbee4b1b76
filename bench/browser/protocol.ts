// What the browser simulation bench page (sim-page.ts) reports to its runner (run-chromium.mjs).

export interface BrowserSimReport {
  userAgent: string;
  tasks: number;
  steps: number;
  /** fetch of the binary graph, then decodeGraphBinary (checksum, full validation). */
  fetchMs: number;
  decodeMs: number;
  /** SimulationRun constructor: simulator parameters and the graph into both WASM instances. */
  setupMs: number;
  /** Wall time of each step (choose, roll out, metrics, observe, learn). */
  stepMs: number[];
  totalMs: number;
  /** The run fingerprint (FNV-1a over batches and rewards): the same run as in Node. */
  fingerprint: string;
  meanRewardLast: number;
  /** Linear memory of the scheduler's and the simulator's instances, bytes. */
  wasmBytes: number;
  /** performance.memory (Chromium only), bytes; null elsewhere. */
  jsHeapUsed: number | null;
  error?: string;
}
