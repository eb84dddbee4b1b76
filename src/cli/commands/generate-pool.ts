// `envsched generate-pool`: an EnvScaler-format pool with the statistics of the RL release.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { integerFlag, parseFlags, requireFlag } from '../args.ts';
import type { Command } from '../io.ts';
import { generatePool, MAX_ENVS, poolFiles } from '../../pool/generate.ts';

export const generatePoolCommand: Command = {
  name: 'generate-pool',
  summary: 'generate an EnvScaler-format pool (env_metadata, scenarios, topology, sim sidecar)',
  usage: [
    'usage: envsched generate-pool --envs E --tasks-per-env T --seed S --out DIR [--total-tasks N]',
    '',
    'Writes DIR/env_metadata.json and DIR/rl_scenario_metadata.json in the EnvScaler release format,',
    'DIR/topology.json (Appendix E topology per task), DIR/categories.json and DIR/sim.json (the',
    "simulator's hidden parameters). --total-tasks spreads N tasks evenly over the environments.",
  ].join('\n'),
  async run(args, io) {
    const flags = parseFlags(args, {
      envs: { type: 'string' },
      'tasks-per-env': { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      'total-tasks': { type: 'string' },
    });
    const envs = integerFlag(flags, 'envs', 1, MAX_ENVS) ?? 51;
    const tasksPerEnv = integerFlag(flags, 'tasks-per-env', 1, 1000) ?? 50;
    const seed = integerFlag(flags, 'seed', 0, 0xffff_ffff) ?? 0;
    const totalTasks = integerFlag(flags, 'total-tasks', 1, 1_000_000);
    const out = requireFlag(flags, 'out');
    const pool = generatePool({ envs, tasksPerEnv, seed, totalTasks });
    await mkdir(out, { recursive: true });
    for (const [name, text] of Object.entries(poolFiles(pool))) await writeFile(join(out, name), text);
    io.stderr(`generated ${envs} environments, ${pool.scenarios.length} tasks (seed ${seed}) in ${out}\n`);
    return 0;
  },
};
