// Scheduler kernels (SPEC 2-8). Filled in by the scheduler-core work.
