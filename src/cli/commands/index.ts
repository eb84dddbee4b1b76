// Every `envsched` subcommand, in the order `envsched --help` lists them.
import type { Command } from '../io.ts';

export const COMMANDS: Command[] = [];
