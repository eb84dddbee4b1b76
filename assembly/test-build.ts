// The test build's exports (build/envsched.test.wasm): the release module's, plus the test hooks.
// Same options as the release target (asconfig.json), so the kernels are the release kernels.
export * from './index';
export * from './scheduler/test-hooks';
