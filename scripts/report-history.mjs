// `npm run calibrate` writes a new report over docs/calibration-report.md; the fits before it stay
// in the file. The previous report's own part (its lead and its "## Fitted parameters" and "## Fit
// targets" sections) moves under one heading below the new report, one level down, and the
// earlier fits' sections the previous report kept follow it unchanged.

/** The first line index of the previous report's earlier-fit sections (its first "## " heading after "## Fit targets"). */
function earlierSectionsStart(lines) {
  const targets = lines.findIndex((line) => line.startsWith('## Fit targets'));
  if (targets < 0) return lines.length;
  const next = lines.findIndex((line, k) => k > targets && line.startsWith('## '));
  return next < 0 ? lines.length : next;
}

/**
 * The new report (`current`: its lines, starting "# Calibration report") followed by the previous
 * one (`previous`: the file's text, or null when there is none) as history.
 */
export function withHistory(current, previous, heading) {
  if (previous === null || !previous.startsWith('# Calibration report')) return current;
  const lines = previous.replace(/\n+$/, '').split('\n');
  const cut = earlierSectionsStart(lines);
  const own = lines.slice(1, cut).map((line) => (/^#{2,5} /.test(line) ? `#${line}` : line));
  while (own.length > 0 && own[0] === '') own.shift();
  return [...current, `## ${heading}`, '', ...own, ...(cut < lines.length ? ['', ...lines.slice(cut)] : [])];
}
