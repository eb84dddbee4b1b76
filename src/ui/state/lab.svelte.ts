// The page's composition root: the URL state, the small stores (stores.svelte.ts) and the
// orchestrator (orchestrator.ts) that drives them. The getters and methods below only forward, so
// the views read `lab.a`, `lab.inspection`, ... and stay unaware of which store holds what.
import type { Config } from '../../engine/types.ts';
import type { EngineClient, EngineFault, FaultKind } from '../engine/client.ts';
import { Orchestrator, type InputFile } from './orchestrator.ts';
import { CardRunner } from '../result/card-runner.ts';
import { CardStore } from '../result/card-store.svelte.ts';
import type { CardExecutor } from '../result/card.ts';
import { DataStore, ExplainStore, LaneStore, NoticeStore, ReproduceStore, ViewStore } from './stores.svelte.ts';
import { defaultConfig, parseUrlState, serializeUrlState, type AppState } from './url-state.ts';
import { calibratedWorld } from './world-url.ts';

export type { LaneRun, Notice } from './model.ts';
export { faultSentence } from './orchestrator.ts';

/** The test handle on `globalThis.envschedDebug` (only with `?debug=1`). */
export interface DebugHandle {
  armFault(kind: FaultKind): Promise<void>;
  faults(): EngineFault[];
}

/** Linked highlighting across views. */
export interface Highlight {
  env: number | null;
  task: number | null;
}

export class Lab {
  state: AppState = $state(parseUrlState('').state);
  readonly lanes = new LaneStore();
  readonly data = new DataStore();
  readonly view = new ViewStore();
  readonly repro = new ReproduceStore();
  readonly noticeStore = new NoticeStore();
  readonly explainStore = new ExplainStore();
  readonly card = new CardStore();
  readonly cardRunner: CardRunner;
  readonly client: EngineClient;
  readonly orchestrator: Orchestrator;

  /** `cardExecutor`: the background worker pool the result card's seeds run in (made on first use). */
  constructor(client: EngineClient, search: string, cardExecutor: () => Promise<CardExecutor>) {
    this.cardRunner = new CardRunner(this.card, cardExecutor);
    this.client = client;
    this.state = this.readUrl(search);
    const lab = this;
    this.orchestrator = new Orchestrator(
      {
        get state() {
          return lab.state;
        },
        lanes: this.lanes,
        data: this.data,
        view: this.view,
        repro: this.repro,
        notices: this.noticeStore,
      },
      client,
      { frame: (fn) => requestAnimationFrame(fn), after: (fn, ms) => setTimeout(fn, ms) },
    );
    // The fault hook exists only when the page was opened with `debug=1` (never written back to
    // the URL, so a copied link never carries it): docs/reliability.md, "Faults in the app".
    if (new URLSearchParams(search).get('debug') === '1') {
      (globalThis as { envschedDebug?: DebugHandle }).envschedDebug = {
        armFault: (kind) => client.armFault(kind),
        faults: () => this.data.faults.map((f) => ({ ...f })),
      };
    }
  }

  /** A link's state; its corrections become error notices, an older link version's note an info one. */
  private readUrl(search: string): AppState {
    const { state, notices, info } = parseUrlState(search);
    for (const text of notices) this.notify('error', text);
    for (const text of info) this.notify('info', text);
    return state;
  }

  /** Replaces the shareable state with a link's (Back / Forward); its corrections become notices. */
  applyUrl(search: string): void {
    const state = this.readUrl(search);
    this.state.a = state.a;
    this.state.b = state.b;
    this.state.step = state.step;
    this.state.task = state.task;
    this.state.present = state.present;
    this.state.controls = state.controls;
    this.state.world = state.world;
  }

  // ---- forwarded reads (the views' vocabulary) ----
  get a() {
    return this.lanes.a;
  }
  get b() {
    return this.lanes.b;
  }
  get ref() {
    return this.lanes.ref;
  }
  get running() {
    return this.lanes.running;
  }
  get notices() {
    return this.noticeStore.notices;
  }
  get datasets() {
    return this.data.datasets;
  }
  get dataset() {
    return this.data.dataset;
  }
  get source() {
    return this.data.source;
  }
  get imported() {
    return this.data.imported;
  }
  get faults() {
    return this.data.faults;
  }
  get inspection() {
    return this.view.inspection;
  }
  get inspectError() {
    return this.view.inspectError;
  }
  get inspecting() {
    return this.view.inspecting;
  }
  get pool() {
    return this.view.pool;
  }
  get highlight(): Highlight {
    return this.view.highlight;
  }
  get playing() {
    return this.view.playing;
  }
  set playing(on: boolean) {
    this.view.playing = on;
  }
  get reproduce() {
    return this.repro.reproduce;
  }
  get explain() {
    return this.explainStore.text;
  }
  set explain(text: string) {
    this.explainStore.text = text;
  }
  get query(): string {
    return serializeUrlState(this.state);
  }
  get stepCount(): number {
    return this.orchestrator.stepCount;
  }
  get currentStep(): number {
    return this.orchestrator.currentStep;
  }
  get shownRecord() {
    return this.orchestrator.shownRecord;
  }

  // ---- forwarded actions ----
  notify(kind: 'error' | 'info', text: string): void {
    this.noticeStore.notify(kind, text);
  }
  dismiss(id: number): void {
    this.noticeStore.dismiss(id);
  }
  setStep(step: number | null): void {
    this.orchestrator.setStep(step);
  }
  init(): Promise<void> {
    return this.orchestrator.init();
  }
  configChanged(): void {
    this.orchestrator.configChanged();
  }
  rerun(): Promise<void> {
    return this.orchestrator.rerun();
  }
  requestInspection(): void {
    this.orchestrator.requestInspection();
  }
  requestPool(): void {
    this.orchestrator.requestPool();
  }
  importFiles(files: InputFile[]): Promise<void> {
    return this.orchestrator.importFiles(files);
  }
  backToSimulation(): void {
    this.orchestrator.backToSimulation();
  }
  runReproduce(seeds: number, steps: number, table4Runs: number): Promise<void> {
    return this.orchestrator.runReproduce(seeds, steps, table4Runs);
  }

  /**
   * What the result card compares: A against B in compare mode, else A against the random
   * scheduler at A's seed (nothing when A is random itself, or for imported data).
   */
  updateCard(): void {
    const { a, b } = this.state;
    if (this.source !== 'sim') return this.cardRunner.want(null, null, this.card.seeds);
    const against = b ?? (a.scheduler === 'random' ? null : { ...a, alpha: [...a.alpha] as Config['alpha'], scheduler: 'random' as const });
    // The seeds run in the sweep's pool, which simulates the calibrated world: say so when the
    // page's world knobs differ (the charts below use them, the card does not).
    this.card.calibratedOnly = JSON.stringify(this.state.world) !== JSON.stringify(calibratedWorld());
    this.cardRunner.want(against ? a : null, against, this.card.seeds);
  }

  resetConfig(): void {
    const keep = { dataset: this.state.a.dataset };
    this.state.a = { ...defaultConfig(), ...keep } as Config;
  }
}
