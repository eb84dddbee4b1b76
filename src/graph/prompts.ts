// The Appendix E request: for each task, a prompt asking an LLM for the task's topology
// (operations with families, gates with type and provenance, reward groups, conflicts) in the
// shape `--topology` and `topology-import` read (src/graph/topology.ts). One request per line.
// The wording is this project's own, following the paper's description of what to extract.
import type { ReleaseEnv, ReleaseTask } from './release.ts';

export const PROMPT_FORMATS = ['messages', 'openai-batch'] as const;
export type PromptFormat = (typeof PROMPT_FORMATS)[number];

/** A placeholder: the paper does not fix the model; `--model` names the one to use. */
export const DEFAULT_MODEL = 'gpt-4o-mini';

export const FAMILIES: readonly [string, string][] = [
  ['lookup', 'reads or finds a record'],
  ['validate', 'checks that a condition holds before acting'],
  ['authorise', 'approves, grants or authenticates'],
  ['update', 'changes fields of an existing record'],
  ['create', 'adds a new record'],
  ['delete', 'removes or cancels a record'],
  ['link', 'associates, assigns or moves records between each other'],
  ['schedule', 'sets or changes a date or time'],
  ['compute', 'calculates a value from other values'],
];

export const GATE_TYPES: readonly [string, string][] = [
  ['identifier_resolution', 'a record named in words (a person, a title) must be resolved to its id first'],
  ['state_precondition', 'the current state must satisfy a condition before the change is allowed'],
  ['authorisation', 'the change needs an approval or a permission'],
  ['parameter_derivation', 'an argument must be worked out from another record or an earlier result'],
  ['capacity_constraint', 'a limit (capacity, quota, balance) must not be exceeded'],
  ['ordering', 'the operation must come after another one'],
  ['state_change', 'the requested change itself'],
];

export const PROVENANCES: readonly [string, string][] = [
  ['instruction', 'stated in the instruction'],
  ['initial_state', 'read from the initial state'],
  ['prior_output', 'returned by an earlier operation'],
];

export const RELATIONS: readonly [string, string][] = [
  ['all_of', 'the checks pass when all the required operations are done right'],
  ['existence', 'the checks test that something now exists'],
  ['absence', 'the checks test that something no longer exists'],
  ['unchanged', 'the checks already hold in the initial state and must still hold (no required operations)'],
];

export const SYSTEM_PROMPT = [
  'You analyse tool-use tasks for a training scheduler. For one task you are given the tools of its',
  'environment, the instruction, the initial state and the checks run on the final state. You',
  'describe how a correct solution is structured, as one JSON object. You answer with JSON only.',
].join('\n');

const list = (items: readonly [string, string][]) => items.map(([name, what]) => `  - ${name}: ${what}`).join('\n');

/** The user message for one task (deterministic: same task, same text). */
export function topologyPrompt(task: ReleaseTask, env: ReleaseEnv): string {
  const tools = env.tools.map(
    (t) => `- ${t.name}(${t.params.join(', ')})${t.description ? `: ${t.description.replace(/\s+/g, ' ').trim()}` : ''}`,
  );
  const checks = task.checks.map((c, k) => `Check ${k}: ${c.item.replace(/\s+/g, ' ').trim()}\n${c.func.replace(/\s+$/, '')}`);
  return [
    `Environment: ${env.name} (${env.id})`,
    '',
    'Tools, as name(parameters): description',
    ...tools,
    '',
    'Instruction',
    task.text.trim(),
    '',
    'Initial state (JSON)',
    JSON.stringify(task.initConfig ?? null),
    '',
    `Checks on the final state, numbered from 0 (Python; a check passes when it returns True)`,
    ...checks,
    '',
    'Describe the task as one JSON object with four lists:',
    '',
    '"operations": the tool calls a correct solution makes, in order. Each is',
    '{"id": "op1", "tool": <a tool name from the list above>, "family": <family>, "arguments": {<parameter>: <value>}, "depends_on": [<ids of operations whose result or effect it needs>]}.',
    'Families:',
    list(FAMILIES),
    '',
    '"gates": what a solution must get past, each tied to the operation that gets past it:',
    '{"type": <gate type>, "provenance": <where the information it needs comes from>, "operation": <operation id>}.',
    'Gate types:',
    list(GATE_TYPES),
    'Provenance:',
    list(PROVENANCES),
    '',
    '"reward_groups": the checks grouped by what makes them pass:',
    '{"checks": [<check numbers>], "requires": [<operation ids>], "relation": <relation>}. Relations:',
    list(RELATIONS),
    '',
    '"conflicts": operations that would break a group of checks if done wrongly or too broadly:',
    '{"operations": [<operation ids>], "with": <a short name for the checks at risk>}.',
    '',
    'Use only tools from the list above, and in "depends_on", "gates", "requires" and "conflicts" only ids',
    'defined in "operations". Every check number belongs to exactly one reward group. Answer with the JSON',
    'object only, without text around it.',
  ].join('\n');
}

/** One request line (JSON, no trailing newline) for `task` in the given format. */
export function promptLine(format: PromptFormat, task: ReleaseTask, env: ReleaseEnv, model: string): string {
  const messages = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: topologyPrompt(task, env) },
  ];
  if (format === 'messages') return JSON.stringify({ task_id: task.scenario, messages });
  return JSON.stringify({
    custom_id: task.scenario,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model, messages, temperature: 0, response_format: { type: 'json_object' } },
  });
}
