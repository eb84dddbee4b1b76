// The compiled CLI (dist/) that tests spawn as a real process (serve, the packed package, the
// Python client). test/global-setup.ts rebuilds dist/ before the suite when src/ is newer.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(ROOT, 'bin', 'envsched.js');
