// Keeps main-thread tasks short (every task under 50 ms while a run streams): drawing
// jobs (a chart update, a heatmap column, the scatter) are queued here instead of running inside
// Svelte's update, and run a few at a time in their own macrotasks, at most BUDGET_MS of work per
// task. A job queued again under the same key before it ran replaces the queued one (only the
// latest state is drawn).

// A Chart.js step-chart update takes ~1.5 ms (median) here; 4 ms of jobs per task leaves room for
// the browser's own work (style, layout, paint) when the shared machine starves the main thread.
const BUDGET_MS = 4;
const queue = new Map<string, () => void>();
let posted = false;
let channel: MessageChannel | null = null;

function runSome(): void {
  posted = false;
  const start = performance.now();
  for (const [key, job] of queue) {
    queue.delete(key);
    const t0 = performance.now();
    try {
      job();
      // Opt-in timing for bench/app.mjs (it sets `__envschedJobTimes = {}` before the page loads).
      const times = (globalThis as { __envschedJobTimes?: Record<string, number[]> }).__envschedJobTimes;
      if (times) (times[key.slice(0, key.indexOf(':'))] ??= []).push(performance.now() - t0);
    } catch (error) {
      // One broken view must not stop the others from drawing.
      console.error(error);
    }
    if (performance.now() - start >= BUDGET_MS) break;
  }
  if (queue.size > 0) post();
}

function post(): void {
  if (posted) return;
  posted = true;
  // A MessageChannel task runs as soon as the event loop is free (no 4 ms timer clamp, no frame wait).
  channel ??= new MessageChannel();
  channel.port1.onmessage = runSome;
  channel.port2.postMessage(0);
}

/** Runs `job` soon, in a task of its own (or shared with other small jobs). */
export function schedule(key: string, job: () => void): void {
  queue.delete(key);
  queue.set(key, job);
  post();
}

/** Drops a queued job (a view that is going away). */
export function unschedule(key: string): void {
  queue.delete(key);
}
