// The data the tests read, kept in the repository (provenance: test/fixtures/README.md).
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const ENVSCALER_SAMPLE_DIR = `${FIXTURES}envscaler-sample/`;
/** Files derived from the sample by this project (JSON Lines forms, an SFT-like scenario, LLM answers). */
export const ENVSCALER_DERIVED_DIR = `${FIXTURES}envscaler-derived/`;
