// Simulator and baseline kernels (SPEC 10). Exports are prefixed sim_ / base_.
export * from './model';
export * from './baselines';
export * from './meter';
