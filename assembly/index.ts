// The WASM module's exports. Each folder owns its kernels; this file only gathers them.
// SPEC references: scheduler/ implements SPEC 2-8, sim/ implements SPEC 10.
export * from './common/rng';
export * from './common/memory';
export * from './scheduler/index';
export * from './sim/index';
