// Every `envsched` subcommand, in the order `envsched --help` lists them.
import type { Command } from '../io.ts';
import { scoreCommand } from './score.ts';
import { simulateCommand } from './simulate.ts';
import { reproduceCommand } from './reproduce.ts';
import { generatePoolCommand } from './generate-pool.ts';
import { buildGraphCommand } from './build-graph.ts';
import { graphReportCommand } from './graph-report.ts';
import { sweepCommand, sweepMergeCommand } from './sweep.ts';
import { serveCommand } from './serve.ts';
import { topologyImportCommand } from './topology-import.ts';
import { topologyPromptsCommand } from './topology-prompts.ts';

export const COMMANDS: Command[] = [
  scoreCommand,
  simulateCommand,
  reproduceCommand,
  generatePoolCommand,
  buildGraphCommand,
  graphReportCommand,
  topologyPromptsCommand,
  topologyImportCommand,
  sweepCommand,
  sweepMergeCommand,
  serveCommand,
];
