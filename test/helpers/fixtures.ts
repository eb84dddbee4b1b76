// The data the tests read, kept in the repository (provenance: test/fixtures/README.md).
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const ENVSCALER_SAMPLE_DIR = `${FIXTURES}envscaler-sample/`;
