// Number formatting for the views: short for display, full precision kept in data-value attributes.
export function fmt(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  // Rounding residue of a sum that is 0 (coverage-only's median variance printed as 3.08e-33): 0.
  if (Math.abs(x) < 1e-15) return '0';
  if (x !== 0 && Math.abs(x) < 1e-3) return x.toExponential(2);
  return Number(x.toFixed(digits)).toString();
}

/** Like fmt, but keeps trailing zeros: for figures read side by side (a series, a mean beside its band). */
export function fmtFixed(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || !Number.isFinite(x) || Math.abs(x) < 1e-3) return fmt(x, digits);
  const fixed = x.toFixed(digits);
  // A small negative difference rounds to "-0.00": a sign on zero would read as a loss.
  return /^-0(\.0*)?$/.test(fixed) ? fixed.slice(1) : fixed;
}

export function fmtInt(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en');
}

export function download(name: string, content: string | Blob, type = 'text/plain'): void {
  const blob = typeof content === 'string' ? new Blob([content], { type }) : content;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Words wrapped onto lines of at most `width` characters (a long axis title on a short axis). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}
