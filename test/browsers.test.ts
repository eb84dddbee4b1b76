// The global setup's browser step (test/browsers.ts): on a fresh Debian machine `npm test` finds
// chromium and firefox-esr, installs them itself when it runs as root with apt-get, and otherwise
// stops at once with one line saying what to run. The machine is injected: nothing is installed.
import { describe, expect, it } from 'vitest';
import { BrowsersMissing, ensureBrowsers, planBrowsers, type Machine } from './browsers.ts';

function machine(opts: { root: boolean; apt: boolean; present: string[] }): Machine & { installed: Set<string> } {
  const installed = new Set(opts.present);
  return { isRoot: opts.root, hasAptGet: opts.apt, isExecutable: (path) => installed.has(path), installed };
}

const BOTH = ['/usr/bin/chromium', '/usr/bin/firefox-esr'];

describe('which browsers to use, install or ask for', () => {
  it('uses the installed browsers and runs nothing', () => {
    for (const root of [true, false])
      for (const apt of [true, false]) {
        expect(planBrowsers(machine({ root, apt, present: BOTH }))).toEqual({ kind: 'ready' });
      }
  });

  it('as root with apt-get, installs exactly the missing packages after an apt-get update', () => {
    expect(planBrowsers(machine({ root: true, apt: true, present: [] }))).toEqual({
      kind: 'install',
      packages: ['chromium', 'firefox-esr'],
      commands: [
        ['apt-get', 'update'],
        ['apt-get', 'install', '-y', 'chromium', 'firefox-esr'],
      ],
    });
    const plan = planBrowsers(machine({ root: true, apt: true, present: ['/usr/bin/chromium'] }));
    expect(plan.kind === 'install' && plan.commands[1]).toEqual(['apt-get', 'install', '-y', 'firefox-esr']);
  });

  it('not root: one line with the exact sudo command', () => {
    const plan = planBrowsers(machine({ root: false, apt: true, present: ['/usr/bin/firefox-esr'] }));
    expect(plan.kind).toBe('fail');
    const line = plan.kind === 'fail' ? plan.line : '';
    expect(line).not.toContain('\n');
    expect(line).toContain('sudo apt-get update && sudo apt-get install -y chromium');
    expect(line).not.toContain('firefox-esr`');
  });

  it('no apt-get (even as root): one line naming the packages and paths', () => {
    for (const root of [true, false]) {
      const plan = planBrowsers(machine({ root, apt: false, present: [] }));
      expect(plan.kind).toBe('fail');
      const line = plan.kind === 'fail' ? plan.line : '';
      expect(line).not.toContain('\n');
      expect(line).toMatch(/no apt-get/);
      expect(line).toContain('/usr/bin/chromium and /usr/bin/firefox-esr');
    }
  });
});

describe('carrying out the plan', () => {
  it('installs with logged apt-get commands, then finds the browsers', () => {
    const m = machine({ root: true, apt: true, present: [] });
    const ran: string[] = [];
    const log: string[] = [];
    ensureBrowsers({
      machine: m,
      log: (line) => log.push(line),
      run: (command, args) => {
        ran.push([command, ...args].join(' '));
        if (args[0] === 'install') for (const path of BOTH) m.installed.add(path);
        return 0;
      },
    });
    expect(ran).toEqual(['apt-get update', 'apt-get install -y chromium firefox-esr']);
    expect(log.join('\n')).toContain('browsers: apt-get install -y chromium firefox-esr');
    expect(log.at(-1)).toBe('browsers: chromium and firefox-esr installed');
  });

  it('stops with one line when apt-get fails, and runs nothing more', () => {
    const ran: string[] = [];
    const attempt = () =>
      ensureBrowsers({
        machine: machine({ root: true, apt: true, present: [] }),
        log: () => {},
        run: (c, a) => (ran.push(`${c} ${a[0]}`), 100),
      });
    expect(attempt).toThrow(BrowsersMissing);
    expect(attempt).toThrow(/^`apt-get update` failed \(exit 100\): install chromium and firefox-esr yourself/);
    expect(ran).toEqual(['apt-get update', 'apt-get update']);
  });

  it('does not trust an install that leaves a browser missing', () => {
    expect(() => ensureBrowsers({ machine: machine({ root: true, apt: true, present: [] }), log: () => {}, run: () => 0 })).toThrow(
      /still missing/,
    );
  });

  it('runs nothing when it cannot install, and the error is the one line', () => {
    let ran = 0;
    try {
      ensureBrowsers({ machine: machine({ root: false, apt: false, present: [] }), log: () => {}, run: () => ++ran });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BrowsersMissing);
      expect((error as Error).stack).toBe(`BrowsersMissing: ${(error as Error).message}`);
    }
    expect(ran).toBe(0);
  });
});
