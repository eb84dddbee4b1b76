// SPEC 9 TF-IDF: minimum df 1, at most `maxFeatures` features kept by corpus frequency (total
// count over the pool; ties broken by the term's UTF-16 code-unit order), sublinear tf
// 1 + ln(tf), smoothed idf ln((1 + n) / (1 + df)) + 1, rows L2-normalised. Features are numbered
// in term order (as scikit-learn's vocabulary), and each row is sorted by feature index.

export interface SparseRows {
  nRows: number;
  nFeatures: number;
  rowPtr: Int32Array; // length nRows + 1
  col: Int32Array;
  val: Float64Array;
  terms: string[];
}

export const MAX_FEATURES = 35_000;

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function fitTfidf(docs: Iterable<string[]>, maxFeatures = MAX_FEATURES): SparseRows {
  // Pass 1: intern terms, count per document.
  const ids = new Map<string, number>();
  const termOf: string[] = [];
  let cf: number[] = [];
  let df: number[] = [];
  const docTerms: Int32Array[] = [];
  const docCounts: Int32Array[] = [];
  const local = new Map<number, number>();
  for (const tokens of docs) {
    local.clear();
    for (const t of tokens) {
      let id = ids.get(t);
      if (id === undefined) {
        id = termOf.length;
        ids.set(t, id);
        termOf.push(t);
        cf.push(0);
        df.push(0);
      }
      local.set(id, (local.get(id) ?? 0) + 1);
    }
    const terms = new Int32Array(local.size);
    const counts = new Int32Array(local.size);
    let k = 0;
    for (const [id, c] of local) {
      terms[k] = id;
      counts[k] = c;
      k++;
      cf[id] += c;
      df[id] += 1;
    }
    docTerms.push(terms);
    docCounts.push(counts);
  }
  const n = docTerms.length;
  // Feature selection by corpus frequency, then numbering in term order.
  let kept = termOf.map((_, id) => id);
  if (kept.length > maxFeatures) {
    kept.sort((a, b) => cf[b] - cf[a] || compareStrings(termOf[a], termOf[b]));
    kept = kept.slice(0, maxFeatures);
  }
  kept.sort((a, b) => compareStrings(termOf[a], termOf[b]));
  const featureOf = new Int32Array(termOf.length).fill(-1);
  kept.forEach((id, f) => (featureOf[id] = f));
  const idf = new Float64Array(kept.length);
  kept.forEach((id, f) => (idf[f] = Math.log((1 + n) / (1 + df[id])) + 1));
  cf = [];
  df = [];
  // Pass 2: weighted, normalised rows.
  const rowPtr = new Int32Array(n + 1);
  for (let d = 0; d < n; d++) {
    let c = 0;
    for (const id of docTerms[d]) if (featureOf[id] >= 0) c++;
    rowPtr[d + 1] = rowPtr[d] + c;
  }
  const col = new Int32Array(rowPtr[n]);
  const val = new Float64Array(rowPtr[n]);
  const order: number[] = [];
  for (let d = 0; d < n; d++) {
    const terms = docTerms[d];
    const counts = docCounts[d];
    order.length = 0;
    for (let k = 0; k < terms.length; k++) if (featureOf[terms[k]] >= 0) order.push(k);
    order.sort((a, b) => featureOf[terms[a]] - featureOf[terms[b]]);
    const start = rowPtr[d];
    let norm = 0;
    for (let k = 0; k < order.length; k++) {
      const f = featureOf[terms[order[k]]];
      const w = (1 + Math.log(counts[order[k]])) * idf[f];
      col[start + k] = f;
      val[start + k] = w;
      norm += w * w;
    }
    if (norm > 0) {
      const length = Math.sqrt(norm);
      for (let k = 0; k < order.length; k++) val[start + k] /= length;
    }
  }
  return { nRows: n, nFeatures: kept.length, rowPtr, col, val, terms: kept.map((id) => termOf[id]) };
}
