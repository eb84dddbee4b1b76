// All-pairs similarities and the SPEC 1 neighbour lists.
//
// Each pair (i, j), i < j, is computed exactly once: rows are visited in ascending order and each
// feature's posting list (documents in ascending order) is read from just after i, so a dot
// product accumulates over features in ascending index order. S_full = sum_a alpha_a * cos_a in
// view order (SPEC 9). Values are rounded to 6 decimals before anything compares them, and lists
// are ordered by the rounded value descending, then index ascending (SPEC 1): the file's numbers
// are the graph, and S(i,j) = S(j,i) holds bit for bit.
import type { Neighbour } from '../engine/types.ts';
import type { SparseRows } from './tfidf.ts';

export const DECIMALS = 6;
const SCALE = 10 ** DECIMALS;

export function roundSimilarity(x: number): number {
  return Math.round(x * SCALE) / SCALE;
}

interface Postings {
  start: Int32Array; // length nFeatures + 1
  doc: Int32Array;
  val: Float64Array;
  cursor: Int32Array; // per feature: position of the current row in its list
}

function postingsOf(rows: SparseRows): Postings {
  const start = new Int32Array(rows.nFeatures + 1);
  for (let k = 0; k < rows.col.length; k++) start[rows.col[k] + 1]++;
  for (let f = 0; f < rows.nFeatures; f++) start[f + 1] += start[f];
  const fill = start.slice(0, rows.nFeatures);
  const doc = new Int32Array(rows.col.length);
  const val = new Float64Array(rows.col.length);
  for (let d = 0; d < rows.nRows; d++) {
    for (let k = rows.rowPtr[d]; k < rows.rowPtr[d + 1]; k++) {
      const p = fill[rows.col[k]]++;
      doc[p] = d;
      val[p] = rows.val[k];
    }
  }
  return { start, doc, val, cursor: start.slice(0, rows.nFeatures) };
}

/** acc[j] += cos(i, j) for every j > i sharing a feature with i (rows must be visited in order). */
function accumulateRow(rows: SparseRows, post: Postings, i: number, acc: Float64Array): void {
  const { start, doc, val, cursor } = post;
  for (let k = rows.rowPtr[i]; k < rows.rowPtr[i + 1]; k++) {
    const f = rows.col[k];
    const w = rows.val[k];
    const from = cursor[f] + 1; // postings[cursor[f]] is row i itself
    cursor[f] = from;
    const end = start[f + 1];
    for (let p = from; p < end; p++) acc[doc[p]] += w * val[p];
  }
}

/** Bounded selection of the best `cap` neighbours per task: a min-heap whose top is the worst kept. */
class TopLists {
  readonly idx: Int32Array;
  readonly sim: Float64Array;
  readonly size: Int32Array;
  constructor(
    readonly n: number,
    readonly cap: number,
  ) {
    this.idx = new Int32Array(n * cap);
    this.sim = new Float64Array(n * cap);
    this.size = new Int32Array(n);
  }

  /** True when (s1, j1) ranks below (s2, j2): lower similarity, or equal and higher index. */
  private static worse(s1: number, j1: number, s2: number, j2: number): boolean {
    return s1 < s2 || (s1 === s2 && j1 > j2);
  }

  push(i: number, j: number, s: number): void {
    const cap = this.cap;
    if (cap === 0) return;
    const base = i * cap;
    const idx = this.idx;
    const sim = this.sim;
    let n = this.size[i];
    let pos: number;
    if (n < cap) {
      pos = n;
      this.size[i] = ++n;
      while (pos > 0) {
        const parent = (pos - 1) >> 1;
        if (!TopLists.worse(s, j, sim[base + parent], idx[base + parent])) break;
        idx[base + pos] = idx[base + parent];
        sim[base + pos] = sim[base + parent];
        pos = parent;
      }
      idx[base + pos] = j;
      sim[base + pos] = s;
      return;
    }
    if (!TopLists.worse(sim[base], idx[base], s, j)) return; // not better than the worst kept
    pos = 0;
    for (;;) {
      const l = 2 * pos + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && TopLists.worse(sim[base + r], idx[base + r], sim[base + l], idx[base + l])) c = r;
      if (!TopLists.worse(sim[base + c], idx[base + c], s, j)) break;
      idx[base + pos] = idx[base + c];
      sim[base + pos] = sim[base + c];
      pos = c;
    }
    idx[base + pos] = j;
    sim[base + pos] = s;
  }

  list(i: number): Neighbour[] {
    const out: Neighbour[] = [];
    for (let k = 0; k < this.size[i]; k++) out.push([this.idx[i * this.cap + k], this.sim[i * this.cap + k]]);
    return sortNeighbours(out);
  }
}

export function sortNeighbours(list: Neighbour[]): Neighbour[] {
  return list.sort((a, b) => (a[1] !== b[1] ? (a[1] > b[1] ? -1 : 1) : a[0] - b[0]));
}

export interface SimilarityInput {
  /** The six SPEC 9 views, in table order. */
  views: SparseRows[];
  alpha: readonly number[];
  /** The abstract-description view (S_abs). */
  abstract: SparseRows;
  taskEnv: Int32Array;
  mCross: number;
  pCross: number;
  onProgress?: (done: number, total: number) => void;
}

export interface NeighbourLists {
  within: Neighbour[][];
  cross: Neighbour[][];
  fullCross: Neighbour[][];
}

export function neighbourLists(input: SimilarityInput): NeighbourLists {
  const { views, alpha, abstract, taskEnv, mCross, pCross } = input;
  const n = taskEnv.length;
  const nViews = views.length;
  const posts = views.map(postingsOf);
  const absPost = postingsOf(abstract);
  const acc = views.map(() => new Float64Array(n));
  const accAbs = new Float64Array(n);
  // Within lists: every same-environment pair, filled from both ends.
  const within: Neighbour[][] = Array.from({ length: n }, () => []);
  const cross = new TopLists(n, Math.min(mCross, n));
  const fullCross = new TopLists(n, Math.min(pCross, n));
  const step = Math.max(1, Math.floor(n / 100));
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < nViews; a++) accumulateRow(views[a], posts[a], i, acc[a]);
    accumulateRow(abstract, absPost, i, accAbs);
    const ei = taskEnv[i];
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      for (let a = 0; a < nViews; a++) {
        s += alpha[a] * acc[a][j];
        acc[a][j] = 0;
      }
      const full = roundSimilarity(s);
      const abs = roundSimilarity(accAbs[j]);
      accAbs[j] = 0;
      if (taskEnv[j] === ei) {
        within[i].push([j, full]);
        within[j].push([i, full]);
      } else {
        cross.push(i, j, abs);
        cross.push(j, i, abs);
        fullCross.push(i, j, full);
        fullCross.push(j, i, full);
      }
    }
    if (input.onProgress && (i % step === 0 || i === n - 1)) input.onProgress(i + 1, n);
  }
  return {
    within: within.map(sortNeighbours),
    cross: Array.from({ length: n }, (_, i) => cross.list(i)),
    fullCross: Array.from({ length: n }, (_, i) => fullCross.list(i)),
  };
}
