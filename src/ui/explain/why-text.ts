// "Why this task" in words, from the replayed batch (src/reference/why.ts). Used by the inspector
// and by the walkthrough's phase scenes.
import type { LeftOutReason, PickWhy } from '../../reference/why.ts';
import type { TaskWhy } from '../../worker/explain.ts';
import { fmt } from '../lib/format.ts';

const CRITERION: Record<string, string> = {
  environment: 'its environment had the fewest tasks in the batch (n_e)',
  exposure: 'its environment had the least cumulative exposure (X_e)',
  observations: 'it had the fewest observations (c_i)',
  none: 'the restriction kept every eligible task',
};

const CAP_WORDS: Record<string, string> = {
  C1: 'its environment already had C1 tasks in the batch',
  C3: 'its environment reached C3 selections over the last three steps',
  C_task: 'it was picked at each of the last C_task steps',
};

/** One sentence: which phase picked the task and why. */
export function pickSentence(p: PickWhy, name: (i: number) => string): string {
  const relaxed = p.newlyRelaxed.length > 0 ? ` No task was eligible until ${p.newlyRelaxed.join(', then ')} was relaxed.` : '';
  const runner = p.runnerUp ? ` It beat ${name(p.runnerUp.task)} (${fmt(p.runnerUp.score, 4)}).` : ' It was the only candidate.';
  if (p.phase === 'cold-start') {
    return p.coldStartRule === 'representative'
      ? `Cold start pick #${p.position + 1}: the most central task of its environment (mean similarity ${fmt(p.self.score, 3)}).${runner}`
      : `Cold start pick #${p.position + 1}: the most novel task left (novelty ${fmt(p.self.score, 3)}).${runner}`;
  }
  if (p.phase === 'coverage') {
    const r = p.restriction!;
    return `Coverage pick #${p.position + 1}: ${CRITERION[r.decidedBy]} (${r.eligible} eligible → ${r.afterEnvironment} → ${r.afterExposure} → ${r.afterObservations}); among those it had the ${rank(p.qRank)} highest q of ${p.candidates}, score q − λ_sim·S = ${fmt(p.self.q, 4)} − ${fmt(p.self.penalty, 4)} = ${fmt(p.self.score, 4)}.${runner}${relaxed}`;
  }
  return `Exploitation pick #${p.position + 1}: q·ω − λ_sim·S = ${fmt(p.self.q, 4)}·${fmt(p.self.omega, 4)} − ${fmt(p.self.penalty, 4)} = ${fmt(p.self.score, 4)}, the highest of ${p.candidates} eligible tasks (its q ranks ${rank(p.qRank)}).${runner}${relaxed}`;
}

function rank(n: number): string {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

/** One sentence: what kept a task out of the batch. */
export function leftOutSentence(r: LeftOutReason, name: (i: number) => string, picks: readonly { task: number }[]): string {
  switch (r.kind) {
    case 'removed':
      return `Not picked: the identifier filter removed it for good (a flagged rollout at step ${r.step}).`;
    case 'progress':
      return 'Not picked: the progress filter keeps it out of exploitation (it keeps doing worse than predicted), and coverage did not reach it.';
    case 'cap':
      return `Not picked: a cap kept it out whenever it could have competed: ${CAP_WORDS[r.rule]}.`;
    case 'penalty':
      return `Not picked: at pick #${r.position + 1} it would have beaten ${name(picks[r.position].task)} by ${fmt(r.margin, 4)} without the similarity penalty λ_sim·S.`;
    case 'rank':
      return `Not picked: simply rank. Its best was ${rank(r.rank)} of ${r.candidates} at pick #${r.position + 1}, ${fmt(r.gap, 4)} below ${name(picks[r.position].task)}.`;
    case 'restriction':
      return `Not picked: the coverage restriction always preferred others (${CRITERION[r.criterion].replace('its', 'their')}), and exploitation did not reach it.`;
    case 'cold-start':
      return 'Not picked: the cold start takes each environment’s most central task, then the most novel ones; this one was neither.';
    case 'no-room':
      return 'Not picked: the batch had no slot.';
  }
}

export function whySentence(why: TaskWhy, name: (i: number) => string, picks: readonly { task: number }[]): string {
  if (why.pick) return pickSentence(why.pick, name);
  return why.leftOut ? leftOutSentence(why.leftOut, name, picks) : '';
}
