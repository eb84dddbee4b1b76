// Token streams of the six SPEC 9 views (and of the abstract description). Each returns the
// tokens of one document with repeats (term frequency is counted by the TF-IDF fit).

// Like scikit-learn's default token pattern `(?u)\b\w\w+\b`: words of two or more word characters.
const WORD = /[\p{L}\p{N}_]{2,}/gu;

export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Word unigrams and bigrams (bigrams of adjacent tokens within one text). */
export function wordUniBigrams(texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    const w = wordTokens(text);
    for (let k = 0; k < w.length; k++) out.push(w[k]);
    for (let k = 0; k + 1 < w.length; k++) out.push(`${w[k]} ${w[k + 1]}`);
  }
  return out;
}

/** Character 3-5-grams of the lower-cased text with whitespace runs collapsed (code points). */
export function charNGrams(text: string): string[] {
  const chars = Array.from(text.toLowerCase().replace(/\s+/g, ' '));
  const out: string[] = [];
  for (let n = 3; n <= 5; n++) {
    for (let k = 0; k + n <= chars.length; k++) out.push(chars.slice(k, k + n).join(''));
  }
  return out;
}

const PY_KEYWORDS = new Set([
  'def',
  'return',
  'for',
  'in',
  'if',
  'elif',
  'else',
  'not',
  'and',
  'or',
  'is',
  'None',
  'True',
  'False',
  'break',
  'continue',
  'while',
  'try',
  'except',
  'lambda',
  'import',
  'from',
  'with',
  'as',
  'pass',
  'raise',
  'len',
  'any',
  'all',
  'sum',
  'set',
  'list',
  'dict',
  'next',
  'min',
  'max',
  'sorted',
  'isinstance',
  'float',
  'int',
  'str',
  'round',
  'abs',
]);
const PY_TOKEN =
  /#[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|==|!=|<=|>=|\*\*|\/\/|[-+*/%<>=\[\](){}.,:]/g;

/**
 * Structure tokens of check functions (SPEC 9 view 4): keywords and builtins (`kw:`), the state
 * names (`state:final_state`), attribute names after a dot (`attr:get`), string literals used as
 * keys (in `["k"]` or as the first argument of `.get("k")`: `key:k`) and operators (`op:==`).
 * Other literals and local variable names are left out.
 */
export function codeTokens(sources: readonly string[]): string[] {
  const out: string[] = [];
  for (const src of sources) {
    const toks = src.match(PY_TOKEN) ?? [];
    for (let k = 0; k < toks.length; k++) {
      const t = toks[k];
      if (t.startsWith('#')) continue;
      const prev = k > 0 ? toks[k - 1] : '';
      const prev2 = k > 1 ? toks[k - 2] : '';
      if (t[0] === '"' || t[0] === "'") {
        const isKey = (prev === '[' && toks[k + 1] === ']') || (prev === '(' && prev2 === 'get');
        if (isKey) out.push(`key:${t.slice(1, -1)}`);
        continue;
      }
      if (/^[A-Za-z_]/.test(t)) {
        if (prev === '.') out.push(`attr:${t}`);
        else if (PY_KEYWORDS.has(t)) out.push(`kw:${t}`);
        else if (t === 'final_state' || t === 'initial_state') out.push(`state:${t}`);
        continue;
      }
      if (/^\d/.test(t)) continue;
      if (t !== '(' && t !== ')' && t !== ',' && t !== ':' && t !== '.') out.push(`op:${t}`);
    }
  }
  return out;
}

/** Keys and scalar values of the initial state (SPEC 9 view 5), as lower-cased words. */
export function contextTokens(value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
    } else if (typeof v === 'object') {
      for (const key of Object.keys(v as Record<string, unknown>)) {
        for (const w of wordTokens(key)) out.push(w);
        walk((v as Record<string, unknown>)[key]);
      }
    } else {
      for (const w of wordTokens(String(v))) out.push(w);
    }
  };
  walk(value);
  return out;
}
