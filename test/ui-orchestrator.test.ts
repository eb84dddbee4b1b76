// The page's orchestrator without a browser: a fake engine client streams made-up steps (a
// fingerprint derived from the configuration), and the tests check what a user would see in the
// stores: the newest configuration's run wins, a cancel stops quietly, a failed worker brings
// back the last configuration that worked, imports are used as dropped, B alone re-runs B.
import { describe, expect, it } from 'vitest';
import type { Config } from '../src/engine/types.ts';
import type {
  DatasetInfo,
  ImportedScores,
  Inspection,
  Lane,
  PoolSnapshot,
  Result,
  RunDone,
  StepChunk,
  StepRecord,
} from '../src/worker/api.ts';
import type { ReproduceResult } from '../src/sim/reproduce.ts';
import { Cancelled, type EngineFault } from '../src/ui/engine/errors.ts';
import type { LabModel, Notice } from '../src/ui/state/model.ts';
import { MAX_APP_STEPS, Orchestrator, type EngineLike, type InputFile } from '../src/ui/state/orchestrator.ts';
import { defaultState } from '../src/ui/state/url-state.ts';

const DATASET: DatasetInfo = {
  name: 'fake',
  source: 'fake',
  envs: [{ id: 'e0', name: 'e0', category: null }],
  tasks: Array.from({ length: 100 }, (_, i) => ({ id: `t${i}`, env: 0, tools: [], checks: 1, text: '' })),
  simulable: true,
  suites: [],
};

function fingerprintOf(config: Config): string {
  let h = 2166136261;
  for (const c of JSON.stringify(config)) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h.toString(16).padStart(16, '0');
}

function tick(): Promise<void> {
  return new Promise((r) => setTimeout(r, 0));
}

/** A fake engine: runs stream T steps in chunks of 5 (one macrotask apart) and stop at interrupt(). */
class FakeEngine implements EngineLike {
  epoch = 0;
  onFault: ((fault: EngineFault) => void) | null = null;
  runs: { lane: Lane; runId: number; config: Config; world?: unknown; outcome: 'running' | 'done' | 'cancelled' }[] = [];
  historyConfigs: Config[] = [];
  /** Delivers each run's last chunk after its answer (as a callback port may). */
  lateLastChunk = false;
  /** The next history import fails with this notice. */
  historyNotice: string | null = null;
  private stop = new Set<number>();
  private inFlight: Promise<unknown>[] = [];

  get busy(): boolean {
    return this.runs.some((r) => r.outcome === 'running');
  }

  async interrupt(): Promise<void> {
    for (const r of this.runs) if (r.outcome === 'running') this.stop.add(r.runId);
    await Promise.allSettled(this.inFlight);
  }

  async datasetNames(): Promise<string[]> {
    return ['fake'];
  }

  async loadDataset(): Promise<Result<DatasetInfo>> {
    return { ok: true, value: DATASET };
  }

  async loadGraphFile(_bytes: Uint8Array, fileName: string): Promise<Result<DatasetInfo>> {
    return { ok: true, value: { ...DATASET, source: fileName, simulable: false } };
  }

  run(lane: Lane, runId: number, config: Config, onChunk: (chunk: StepChunk) => void, world?: unknown): Promise<Result<RunDone>> {
    const record = { lane, runId, config, world, outcome: 'running' as 'running' | 'done' | 'cancelled' };
    this.runs.push(record);
    const work = (async (): Promise<Result<RunDone>> => {
      for (let t = 0; t < config.T; t += 5) {
        await tick();
        if (this.stop.has(runId) || record.outcome !== 'running') {
          record.outcome = 'cancelled';
          throw new Cancelled();
        }
        const steps = Array.from(
          { length: Math.min(5, config.T - t) },
          (_, k) => ({ metrics: { step: t + k }, phases: null, predictedBatchVariance: null }) as unknown as StepRecord,
        );
        if (this.lateLastChunk && t + 5 >= config.T) setTimeout(() => onChunk({ lane, runId, steps }), 5);
        else onChunk({ lane, runId, steps });
      }
      record.outcome = 'done';
      return { ok: true, value: { lane, runId, fingerprint: fingerprintOf(config), steps: config.T, millis: 7 } };
    })();
    this.inFlight.push(work.catch(() => {}));
    return work;
  }

  /** The worker dies: its runs reject (as the real client's WorkerFault), it is replaced, the listener told. */
  fault(): void {
    for (const r of this.runs) if (r.outcome === 'running') r.outcome = 'cancelled';
    this.epoch++;
    this.onFault?.({ kind: 'trap', during: 'running configuration A', detail: 'RuntimeError: unreachable' });
  }

  async pool(): Promise<PoolSnapshot | null> {
    return null;
  }

  async inspect(): Promise<Result<Inspection>> {
    return { ok: false, notice: 'not in this fake', input: null };
  }

  async importHistory(_text: string, fileName: string, config: Config): Promise<Result<ImportedScores>> {
    this.historyConfigs.push(config);
    if (this.historyNotice) return { ok: false, notice: `${fileName}:3: ${this.historyNotice}`, input: null };
    return { ok: true, value: { step: 12, observations: 96, batch: [], batchTasks: [3, 4], relaxed: [], removed: 0, progressExcluded: 0 } };
  }

  async reproduce(): Promise<Result<ReproduceResult>> {
    return { ok: false, notice: 'not in this fake', input: null };
  }
}

function setup(query: Partial<Config> = {}) {
  const notices: Notice[] = [];
  const state = defaultState();
  Object.assign(state.a, { T: 20, ...query });
  const model: LabModel = {
    state,
    lanes: { a: null, b: null, ref: null, ghostA: null, ghostB: null, running: false, pending: false, refIsB: false },
    data: { datasets: [], dataset: null, source: 'sim', imported: null, importing: null, faults: [] },
    view: { inspection: null, inspectError: null, inspecting: false, pool: null },
    repro: { reproduce: { running: false, done: 0, total: 0, label: '', result: null } },
    notices: { notify: (kind, text) => notices.push({ id: notices.length + 1, kind, text }) },
  };
  const engine = new FakeEngine();
  const orchestrator = new Orchestrator(model, engine, { frame: (fn) => setTimeout(fn, 0), after: (fn) => setTimeout(fn, 0) });
  return { model, engine, orchestrator, notices };
}

/** Waits until nothing is running (the trailing throttle call included). */
async function settled(model: LabModel): Promise<void> {
  for (let k = 0; k < 2000; k++) {
    await tick();
    if (!model.lanes.running && !model.lanes.pending) return;
  }
  throw new Error('the orchestrator never settled');
}

function file(name: string, text: string): InputFile {
  return { name, text: async () => text, arrayBuffer: async () => new TextEncoder().encode(text).buffer as ArrayBuffer };
}

describe('the app orchestrator (fake engine, no browser)', () => {
  it('lets the latest configuration win: a burst of changes ends on the newest run, older runs cancelled', async () => {
    const { model, engine, orchestrator } = setup({ T: 1000 });
    for (const rho of [0.1, 0.2, 0.3, 0.4]) {
      model.state.a.rho = rho;
      orchestrator.configChanged();
      await new Promise((r) => setTimeout(r, 60)); // faster than a run: each change supersedes the last
    }
    await settled(model);
    const a = model.lanes.a!;
    expect(a.config.rho).toBe(0.4);
    expect(a.done).toBe(true);
    expect(a.fingerprint).toBe(fingerprintOf(model.state.a));
    expect(a.steps.map((s) => s.metrics.step)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    const laneA = engine.runs.filter((r) => r.lane === 'a');
    expect(laneA.at(-1)!.config.rho).toBe(0.4);
    expect(laneA.slice(0, -1).every((r) => r.outcome !== 'running')).toBe(true);
    expect(laneA.some((r) => r.outcome === 'cancelled')).toBe(true);
  });

  it('calls a run finished only when all its steps are in, also when the last ones come after its answer', async () => {
    const { model, engine, orchestrator } = setup({ T: 40 });
    engine.lateLastChunk = true;
    orchestrator.configChanged();
    while (!model.lanes.a?.done) await tick();
    expect(model.lanes.a.steps).toHaveLength(40);
    expect(model.lanes.a.fingerprint).toBe(fingerprintOf(model.state.a));
  });

  it('cancel stops the run quietly: nothing claims to be finished, no error notice', async () => {
    const { model, engine, orchestrator, notices } = setup({ T: 200 });
    orchestrator.configChanged();
    while (!model.lanes.a) await tick();
    orchestrator.cancel();
    await engine.interrupt();
    await tick();
    expect(model.lanes.running).toBe(false);
    expect(model.lanes.a?.done).toBe(false);
    expect(model.lanes.a?.fingerprint).toBe(null);
    expect(notices.filter((n) => n.kind === 'error')).toEqual([]);
  });

  it('recovers from a failed worker by restoring and re-running the last configuration that worked', async () => {
    const { model, engine, orchestrator, notices } = setup({ T: 60 });
    orchestrator.configChanged();
    await settled(model);
    const good = { ...model.state.a };
    const goodFingerprint = model.lanes.a!.fingerprint;
    model.state.a.rho = 0.9;
    orchestrator.configChanged();
    while (!engine.runs.some((r) => r.config.rho === 0.9 && r.outcome === 'running')) await tick();
    engine.fault();
    expect(model.state.a.rho).toBe(good.rho);
    await settled(model);
    expect(model.lanes.a!.fingerprint).toBe(goodFingerprint);
    expect(model.lanes.a!.done).toBe(true);
    expect(notices.at(-1)!.text).toMatch(/^The engine failed while running configuration A: .*last settings that worked were restored\.$/);
    expect(model.data.faults).toHaveLength(1);
    // A run of the restored configuration happened in the new worker (the old one's recording is gone).
    expect(engine.runs.filter((r) => r.lane === 'a' && r.config.rho === good.rho && r.outcome === 'done')).toHaveLength(2);
  });

  it('does not loop when the recovery run fails as well', async () => {
    const { model, engine, orchestrator, notices } = setup({ T: 60 });
    orchestrator.configChanged();
    await settled(model);
    model.state.a.rho = 0.9;
    orchestrator.configChanged();
    while (!engine.runs.some((r) => r.config.rho === 0.9 && r.outcome === 'running')) await tick();
    engine.fault();
    while (!engine.runs.some((r) => r.outcome === 'running')) await tick();
    engine.fault();
    await settled(model);
    expect(notices.at(-1)!.text).toMatch(/change a setting to run again\.$/);
    expect(engine.runs.filter((r) => r.outcome === 'running')).toEqual([]);
  });

  it('changing B re-runs B only: A keeps its run, fingerprint and timing', async () => {
    const { model, engine, orchestrator } = setup();
    model.state.b = { ...model.state.a, alpha: [...model.state.a.alpha] as Config['alpha'], rho: 1 };
    orchestrator.configChanged();
    await settled(model);
    const a = model.lanes.a!;
    const runsOfA = engine.runs.filter((r) => r.lane === 'a').length;
    model.state.b = { ...model.state.b, rho: 0.8 };
    orchestrator.configChanged();
    await settled(model);
    expect(model.lanes.a).toBe(a);
    expect(engine.runs.filter((r) => r.lane === 'a').length).toBe(runsOfA);
    expect(model.lanes.b!.config.rho).toBe(0.8);
    expect(model.lanes.b!.fingerprint).toBe(fingerprintOf(model.state.b));
  });

  it('runs every lane in the page’s simulated world, and a world change runs A and the reference again', async () => {
    const { model, engine, orchestrator } = setup();
    orchestrator.configChanged();
    await settled(model);
    const knob = Object.keys(model.state.world)[0] as keyof typeof model.state.world;
    const before = engine.runs.length;
    model.state.world = { ...model.state.world, [knob]: 0 };
    orchestrator.configChanged();
    await settled(model);
    const again = engine.runs.slice(before);
    expect(again.map((r) => r.lane)).toEqual(['a', 'ref']);
    for (const r of again) expect((r.world as Record<string, number>)[knob]).toBe(0);
  });

  it('does not run the random reference twice when B is that run', async () => {
    const { model, engine, orchestrator } = setup();
    model.state.b = { ...model.state.a, alpha: [...model.state.a.alpha] as Config['alpha'], scheduler: 'random' };
    orchestrator.configChanged();
    await settled(model);
    expect(model.lanes.refIsB).toBe(true);
    expect(model.lanes.ref).toBe(null);
    expect(engine.runs.filter((r) => r.lane === 'ref')).toEqual([]);
  });

  it('keeps the previous run as a ghost until the new one has covered the same steps', async () => {
    const { model, orchestrator } = setup({ T: 40 });
    orchestrator.configChanged();
    await settled(model);
    const old = model.lanes.a!;
    model.state.a.rho = 0.7;
    orchestrator.configChanged();
    let sawGhost = false;
    while (model.lanes.running || model.lanes.pending) {
      await tick();
      const a = model.lanes.a!;
      if (a.runId !== old.runId && !a.done) {
        expect(model.lanes.ghostA?.runId).toBe(old.runId);
        sawGhost = true;
      }
    }
    expect(sawGhost).toBe(true);
    expect(model.lanes.ghostA).toBe(null);
  });

  it('keeps the shown step while a new run streams (the ghost’s record until the new run gets there)', async () => {
    const { model, orchestrator } = setup({ T: 40 });
    orchestrator.configChanged();
    await settled(model);
    model.state.step = 30;
    const old = model.lanes.a!;
    model.state.a.rho = 0.7;
    orchestrator.configChanged();
    let sawEarly = false;
    while (model.lanes.running || model.lanes.pending) {
      await tick();
      expect(orchestrator.currentStep).toBe(30);
      const a = model.lanes.a!;
      if (a.runId !== old.runId && a.steps.length <= 30) {
        sawEarly = true;
        expect(orchestrator.shownRecord).toBe(old.steps[30]);
      }
    }
    expect(sawEarly).toBe(true);
    expect(orchestrator.shownRecord).toBe(model.lanes.a!.steps[30]);
  });

  it('bounds a costly link with a notice instead of minutes of silent work', async () => {
    const { model, engine, orchestrator, notices } = setup({ T: 100000, B: 5000 });
    orchestrator.configChanged();
    while (!engine.runs.length) await tick();
    orchestrator.cancel();
    await engine.interrupt();
    expect(model.state.a.T).toBe(MAX_APP_STEPS);
    expect(model.state.a.B).toBe(100);
    expect(engine.runs[0].config.T).toBe(MAX_APP_STEPS);
    expect(notices.map((n) => n.text)).toEqual([
      expect.stringMatching(/^T=100000: .*using 2000$/),
      expect.stringMatching(/^B=5000: larger than the pool \(100 tasks in fake\); using 100$/),
    ]);
  });

  it('uses a config.json dropped with a graph and a history, and the player shows the history’s step', async () => {
    const { model, engine, orchestrator, notices } = setup();
    await orchestrator.importFiles([
      file('graph.json', '{"format":"envsched-graph","tasks":[]}'),
      file('history.jsonl', '{}\n'),
      file('config.json', '{"rho":0.25,"K_within":3}'),
    ]);
    expect(engine.historyConfigs).toHaveLength(1);
    expect(engine.historyConfigs[0].rho).toBe(0.25);
    expect(engine.historyConfigs[0].K_within).toBe(3);
    expect(model.state.a.rho).toBe(0.25);
    expect(model.data.source).toBe('imported');
    expect(model.data.importing).toBe(null);
    expect(orchestrator.currentStep).toBe(12);
    expect(orchestrator.stepCount).toBe(13);
    expect(notices.filter((n) => n.kind === 'error')).toEqual([]);
  });

  it('names the file and field of a bad config.json, and a failed history leaves no import running', async () => {
    const { model, engine, orchestrator, notices } = setup();
    await orchestrator.importFiles([file('config.json', '{"rho":"abc"}')]);
    expect(notices.at(-1)!.text).toBe('config.json: rho: must be a finite number, got "abc"');
    engine.historyNotice = 'not valid JSON';
    await orchestrator.importFiles([file('g.json', '{"format":"envsched-graph"}'), file('h.jsonl', 'x')]);
    expect(notices.at(-1)!.text).toBe('h.jsonl:3: not valid JSON');
    expect(model.data.importing).toBe(null);
    expect(model.data.imported).toBe(null);
  });
});
