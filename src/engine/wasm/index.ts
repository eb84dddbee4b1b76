// The engine's WASM side: loader, scheduler driver, memory layout (no Node imports: see loader-node.ts).
export { compileEnvschedFromUrl, instantiateEnvsched, nativeMathOf, readAsString, WasmAbort, type EnvschedWasm } from './loader.ts';
export { asEnvschedExports, type EnvschedExports, type SchedulerExports } from './exports.ts';
export { prepareScheduler, schedulerFor, WasmScheduler, type SchedulerViews, type StepResult } from './scheduler.ts';
export { CFG, CFG_SLOTS, INFO, INFO_SLOTS, PHASES, PRIOR, PTR, RELAXED } from './layout.ts';
