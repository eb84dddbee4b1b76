// Simulator and baseline kernels (SPEC 10). Filled in by the simulator work.
