// The Appendix E topology from a real LLM: `topology-prompts` writes one request per task,
// `topology-import` keeps the valid answers (fenced or not) and rejects the others with reasons,
// and `build-graph --topology` uses the imported topology exactly for the accepted tasks.
// Inputs: the real sample records and the answers in test/fixtures/envscaler-derived/.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Graph } from '../src/engine/types.ts';
import { buildGraph } from '../src/graph/build.ts';
import { DEFAULT_MODEL, SYSTEM_PROMPT } from '../src/graph/prompts.ts';
import { orderRelease, parseEnvMetadata, parseScenarios } from '../src/graph/release.ts';
import { answerJson } from '../src/graph/responses.ts';
import { deriveTopology, parseTopologyEntry, parseTopologyFile, topologyTools } from '../src/graph/topology.ts';
import { runCli } from './helpers/cli.ts';
import { ENVSCALER_DERIVED_DIR, ENVSCALER_SAMPLE_DIR } from './helpers/fixtures.ts';

const ENV = join(ENVSCALER_SAMPLE_DIR, 'env_metadata.json');
const SCEN = join(ENVSCALER_SAMPLE_DIR, 'scenarios.json');
const RESPONSES = join(ENVSCALER_DERIVED_DIR, 'topology-responses.jsonl');
const RESPONSE_LINES = readFileSync(RESPONSES, 'utf8').trim().split('\n');
const dir = mkdtempSync(join(tmpdir(), 'envsched-topology-'));
const pool = ['--env-metadata', ENV, '--scenarios', SCEN];

interface Request {
  task_id?: string;
  custom_id?: string;
  method?: string;
  url?: string;
  messages?: { role: string; content: string }[];
  body?: { model: string; messages: { role: string; content: string }[] };
}

/** The topology an answer line holds (lines 5 and 6 of the fixture are the good ones). */
function answerTopology(line: string) {
  const rec = JSON.parse(line) as { response?: { body: { choices: { message: { content: string } }[] } }; content?: string };
  const content = rec.response ? rec.response.body.choices[0].message.content : rec.content!;
  return parseTopologyEntry(answerJson(content).value, 'answer', 'answer');
}

function release() {
  const envs = parseEnvMetadata(readFileSync(ENV, 'utf8'), 'e');
  return orderRelease(envs, parseScenarios(readFileSync(SCEN, 'utf8'), 's', envs).tasks);
}

describe('envsched topology-prompts', () => {
  it('writes one request per task with the tools, instruction, state, numbered checks and the four lists to return', async () => {
    const out = join(dir, 'prompts.jsonl');
    const r = await runCli(['topology-prompts', ...pool, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`topology-prompts: 2 prompts (messages) for 2 environments; wrote ${out}\n`);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Request);
    expect(lines.map((l) => l.task_id)).toEqual(['env_151_rl-task_7', 'env_183_rl-task_29']);
    const [system, user] = lines[0].messages!;
    expect(system).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(user.role).toBe('user');
    const text = user.content;
    expect(text).toContain('Environment: ClinicalTrialParticipantManagementSystem (env_151_rl)');
    expect(text).toContain('- update_enrollment_status(enrollment_id, new_status, requesting_user_account_id)');
    expect(text).toContain('Set the clinical trial “VaxImmune Phase I Study” (CT-101) to status “completed”');
    expect(text).toContain('"CT-101":{"trial_id":"CT-101"');
    expect(text).toContain('Check 0: Has the status of clinical trial CT-101 been set to "completed"?');
    expect(text).toContain('Check 2: Has the enrollment_status of participant stephlee23');
    expect(text).not.toContain('Check 3:');
    for (const word of [
      '"operations"',
      '"gates"',
      '"reward_groups"',
      '"conflicts"',
      'identifier_resolution',
      'prior_output',
      'unchanged',
      'schedule',
    ])
      expect(text).toContain(word);
    // Deterministic: the same files give the same bytes.
    const again = await runCli(['topology-prompts', ...pool, '--out', '-']);
    expect(again.stdout).toBe(readFileSync(out, 'utf8'));
  });

  it('--format openai-batch writes OpenAI Batch API request lines with a placeholder model unless --model names one', async () => {
    const r = await runCli(['topology-prompts', ...pool, '--format', 'openai-batch', '--out', '-']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Request);
    expect(lines[1]).toMatchObject({
      custom_id: 'env_183_rl-task_29',
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: DEFAULT_MODEL, temperature: 0, response_format: { type: 'json_object' } },
    });
    expect(lines[1].body!.messages[1].content).toContain('Environment: SupportGroupManagementSystem (env_183_rl)');
    const named = await runCli(['topology-prompts', ...pool, '--format', 'openai-batch', '--model', 'my-model', '--out', '-']);
    expect((JSON.parse(named.stdout.split('\n')[0]) as Request).body!.model).toBe('my-model');
    const bad = await runCli(['topology-prompts', ...pool, '--format', 'csv', '--out', '-']);
    expect(bad.stderr).toBe('error: command line:--format: must be messages or openai-batch, got "csv"\n');
  });
});

describe('envsched topology-import', () => {
  it('imports the good and fenced answers and rejects the rest, each with its reason', async () => {
    const out = join(dir, 'topology.json');
    const rejects = join(dir, 'bad.jsonl');
    const r = await runCli(['topology-import', '--responses', RESPONSES, ...pool, '--out', out, '--rejects', rejects]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'topology-import: 8 answers: 2 imported (1 from code fences), 6 rejected (1 line not JSON, 1 failed request, 1 answer not JSON, 1 invalid topology, 1 unknown task id, 1 tool not in the environment)\n',
    );
    const imported = parseTopologyFile(readFileSync(out, 'utf8'), out);
    expect([...imported.keys()]).toEqual(['env_151_rl-task_7', 'env_183_rl-task_29']);
    expect(imported.get('env_151_rl-task_7')).toEqual(answerTopology(RESPONSE_LINES[4]));
    expect(imported.get('env_183_rl-task_29')).toEqual(answerTopology(RESPONSE_LINES[5]));
    const bad = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { place: string; task_id: string | null; kind: string; reason: string; answer: string });
    expect(bad.map((b) => [b.place, b.task_id, b.kind])).toEqual([
      ['1', 'env_151_rl-task_7', 'malformed-json'],
      ['2', 'env_183_rl-task_29', 'invalid-topology'],
      ['3', 'env_151_rl-task_7', 'unknown-tool'],
      ['4', 'env_999_rl-task_1', 'unknown-task'],
      ['7', 'env_183_rl-task_29', 'failed-request'],
      ['8', null, 'malformed-line'],
    ]);
    expect(bad[1].reason).toBe('operations[4].depends_on[0]: names no operation ("op9")');
    expect(bad[2].reason).toBe('operations[1].tool: "close_clinical_trial" is not a tool of environment env_151_rl');
    expect(bad[3].reason).toBe('task id "env_999_rl-task_1" is not in the pool');
    expect(bad[4].reason).toBe('the request failed: Rate limit reached');
    expect(bad[0].reason).toMatch(/^the answer is not valid JSON: /);
    // Each rejected answer is written as it was.
    bad.forEach((b) => expect(b.answer).toBe(RESPONSE_LINES[Number(b.place) - 1]));
    // The same answers piped on stdin, the topology to stdout.
    const piped = await runCli(['topology-import', '--responses', '-', ...pool, '--out', '-'], { stdin: readFileSync(RESPONSES, 'utf8') });
    expect(piped.stdout).toBe(readFileSync(out, 'utf8'));
    expect(piped.stderr.split('\n')[0]).toBe(r.stderr.trim());
    // The graph built from the import uses the two accepted topologies, nothing derived.
    const g = await runCli(['build-graph', ...pool, '--topology', out, '--out', join(dir, 'full.graph.json')]);
    expect(g.stderr).toContain('topology: 2 imported (--topology), 0 derived from checks and instruction');
    expect(g.stderr).not.toContain('warning:');
    const graph = JSON.parse(readFileSync(join(dir, 'full.graph.json'), 'utf8')) as Graph;
    expect(graph.tasks.map((t) => t.tools)).toEqual([
      topologyTools(answerTopology(RESPONSE_LINES[4])),
      topologyTools(answerTopology(RESPONSE_LINES[5])),
    ]);
  });

  it('lists rejects on stderr without --rejects, and without the pool checks structure only', async () => {
    const out = join(dir, 'nopool.json');
    const r = await runCli(['topology-import', '--responses', RESPONSES, '--out', out]);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe(
      'topology-import: 8 answers: 3 imported (1 from code fences), 5 rejected (1 line not JSON, 1 failed request, 1 answer not JSON, 1 invalid topology, 1 second answer for a task) (no pool given: task ids and tools not checked)',
    );
    expect(lines).toContain(`rejected: ${RESPONSES}:5: task "env_151_rl-task_7" already has an accepted answer (the first one is kept)`);
    // File order without a pool; the unknown id is kept, and build-graph warns about it.
    expect([...parseTopologyFile(readFileSync(out, 'utf8'), out).keys()]).toEqual([
      'env_151_rl-task_7',
      'env_999_rl-task_1',
      'env_183_rl-task_29',
    ]);
    const b = await runCli(['build-graph', ...pool, '--topology', out, '--out', join(dir, 'nopool.graph.json')]);
    expect(b.code).toBe(0);
    expect(b.stderr).toContain('topology: 2 imported (--topology), 0 derived from checks and instruction');
    expect(b.stderr).toContain('warning: the topology file has 1 entry for task ids not in the pool (ignored): env_999_rl-task_1');
  });

  it('refuses a file from which nothing can be imported, in one line', async () => {
    const file = join(dir, 'all-bad.jsonl');
    writeFileSync(file, `${RESPONSE_LINES[0]}\n${RESPONSE_LINES[7]}\n`);
    const r = await runCli(['topology-import', '--responses', file, ...pool, '--out', join(dir, 'none.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: [^\n]*all-bad\.jsonl:\(all answers\): none of the 2 answers yields a valid topology \(first: 1: the answer is not valid JSON: [^\n]*\)\n$/,
    );
  });
});

describe('build-graph --topology with imported answers', () => {
  it('uses the imported topology exactly for the accepted tasks and the derived one elsewhere', async () => {
    // Only line 5 (task 7) of the fixture: task 29 keeps its derived topology.
    const responses = join(dir, 'one.jsonl');
    writeFileSync(responses, `${RESPONSE_LINES[4]}\n${RESPONSE_LINES[1]}\n`);
    const topo = join(dir, 'one-topology.json');
    expect((await runCli(['topology-import', '--responses', responses, ...pool, '--out', topo])).code).toBe(0);
    const out = join(dir, 'imported.graph.json');
    const r = await runCli(['build-graph', ...pool, '--topology', topo, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('topology: 1 imported (--topology), 1 derived from checks and instruction');
    const graph = JSON.parse(readFileSync(out, 'utf8')) as Graph;
    const answer = answerTopology(RESPONSE_LINES[4]);
    const rel = release();
    const derived7 = deriveTopology(rel.tasks[0], rel.envs[0]);
    expect(topologyTools(answer)).not.toEqual(topologyTools(derived7)); // the answer is not what derivation finds
    expect(graph.tasks[0].tools).toEqual(topologyTools(answer));
    expect(graph.tasks[1].tools).toEqual(topologyTools(deriveTopology(rel.tasks[1], rel.envs[1])));
    // In memory: the topologies used are the answer and the derivation, exactly.
    const result = buildGraph({
      envMetadata: { text: readFileSync(ENV, 'utf8'), source: ENV },
      scenarios: { text: readFileSync(SCEN, 'utf8'), source: SCEN },
      topology: { text: readFileSync(topo, 'utf8'), source: topo },
      name: 'imported',
    });
    expect(result.topologies[0]).toEqual(answer);
    expect(result.topologies[1]).toEqual(deriveTopology(rel.tasks[1], rel.envs[1]));
    expect(JSON.stringify(result.graph.tasks)).toBe(JSON.stringify(graph.tasks));
  });

  it('gives every variant of a scenario the scenario answer', () => {
    const topo = `${JSON.stringify({ task_id: 'env_151_rl-task_7', ...answerTopology(RESPONSE_LINES[4]) })}\n${JSON.stringify({ task_id: 'env_183_rl-task_29-nonconv', ...answerTopology(RESPONSE_LINES[5]) })}\n`;
    const result = buildGraph({
      envMetadata: { text: readFileSync(ENV, 'utf8'), source: ENV },
      scenarios: { text: readFileSync(SCEN, 'utf8'), source: SCEN },
      topology: { text: topo, source: 't.jsonl' },
      variants: ['conv', 'nonconv'],
      name: 'v',
    });
    expect(result.derivedTopologies).toBe(1); // env_183_rl-task_29-conv
    expect(result.topologies[0]).toEqual(result.topologies[1]);
    expect(result.topologies[3]).toEqual(answerTopology(RESPONSE_LINES[5]));
    expect(result.unknownTopologyIds).toEqual([]);
  });

  it('still refuses a raw answer file with a bad entry, pointing to topology-import', async () => {
    const topo = join(dir, 'raw.json');
    writeFileSync(topo, JSON.stringify({ 'env_151_rl-task_7': { operations: [{ id: 'op1', family: 'lookup', depends_on: ['op9'] }] } }));
    const r = await runCli(['build-graph', ...pool, '--topology', topo, '--out', join(dir, 'raw.graph.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: ${topo}:env_151_rl-task_7.operations[0].depends_on[0]: names no operation ("op9") (envsched topology-import checks LLM answers one by one and keeps the valid ones)\n`,
    );
  });
});
