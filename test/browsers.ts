// The browsers the suite drives: Debian's chromium (end-to-end and sweep tests) and firefox-esr
// (cross-engine determinism). The global setup makes sure both are there before any test runs, so
// `npm install && npm test` works on a fresh Debian machine: it installs them with apt-get when it
// can (root with apt-get), and otherwise stops at once with one line saying what to run.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** A browser the suite needs: the Debian package and the path the tests launch. */
export interface RequiredBrowser {
  pkg: string;
  path: string;
}

export const REQUIRED_BROWSERS: readonly RequiredBrowser[] = [
  { pkg: 'chromium', path: '/usr/bin/chromium' },
  { pkg: 'firefox-esr', path: '/usr/bin/firefox-esr' },
];

/** What the setup can see of the machine (injected in tests, read from the machine otherwise). */
export interface Machine {
  isRoot: boolean;
  hasAptGet: boolean;
  /** True when the file exists and is executable. */
  isExecutable(path: string): boolean;
}

export type BrowserPlan =
  { kind: 'ready' } | { kind: 'install'; packages: string[]; commands: string[][] } | { kind: 'fail'; line: string };

/** The one decision: use what is installed, install what is missing, or say what to run. */
export function planBrowsers(machine: Machine, required: readonly RequiredBrowser[] = REQUIRED_BROWSERS): BrowserPlan {
  const missing = required.filter((b) => !machine.isExecutable(b.path));
  if (missing.length === 0) return { kind: 'ready' };
  const packages = missing.map((b) => b.pkg);
  const paths = missing.map((b) => b.path).join(' and ');
  if (machine.isRoot && machine.hasAptGet) {
    return {
      kind: 'install',
      packages,
      commands: [
        ['apt-get', 'update'],
        ['apt-get', 'install', '-y', ...packages],
      ],
    };
  }
  if (machine.hasAptGet) {
    return {
      kind: 'fail',
      line: `the browser tests need ${paths}: run \`sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\`, then npm test again`,
    };
  }
  return {
    kind: 'fail',
    line: `the browser tests need ${paths} and this machine has no apt-get: install Debian's ${packages.join(' and ')} packages (or browsers at those paths), then npm test again`,
  };
}

export function currentMachine(): Machine {
  const isExecutable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  const onPath = (name: string) => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && isExecutable(`${dir}/${name}`));
  return { isRoot: process.getuid?.() === 0, hasAptGet: onPath('apt-get'), isExecutable };
}

/** Thrown when the browsers are missing and cannot be installed; its message is the one line to show. */
export class BrowsersMissing extends Error {
  constructor(line: string) {
    super(line);
    this.name = 'BrowsersMissing';
    this.stack = `${this.name}: ${line}`; // the line is the whole report: no stack trace under it
  }
}

/** Runs one command with its output on stderr; returns its exit status (null when killed or not started). */
export type CommandRunner = (command: string, args: readonly string[]) => number | null;

const runCommand: CommandRunner = (command, args) =>
  spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status;

export interface EnsureOptions {
  machine?: Machine;
  run?: CommandRunner;
  log?: (line: string) => void;
}

/** Carries out the plan: installs with apt-get (logging each command) and checks the result. */
export function ensureBrowsers(options: EnsureOptions = {}): void {
  const machine = options.machine ?? currentMachine();
  const run = options.run ?? runCommand;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const plan = planBrowsers(machine);
  if (plan.kind === 'ready') return;
  if (plan.kind === 'fail') throw new BrowsersMissing(plan.line);
  const names = plan.packages.join(' and ');
  log(`browsers: ${names} missing; installing Debian's packages with apt-get (once; takes a few minutes)`);
  for (const [command, ...args] of plan.commands) {
    const shown = [command, ...args].join(' ');
    log(`browsers: ${shown}`);
    const status = run(command, args);
    if (status !== 0)
      throw new BrowsersMissing(`\`${shown}\` failed (exit ${status ?? 'signal'}): install ${names} yourself, then npm test again`);
  }
  const after = planBrowsers(machine);
  if (after.kind !== 'ready')
    throw new BrowsersMissing(`apt-get installed ${names}, but ${REQUIRED_BROWSERS.map((b) => b.path).join(' or ')} is still missing`);
  log(`browsers: ${names} installed`);
}
