// Progress of long builds on stderr: a redrawn bar when stderr is a terminal, otherwise a line
// per phase (never more than a handful of lines), unless `ttyOnly` asks for silence off a terminal.
import type { CliIo } from './io.ts';

export function progressReporter(
  io: CliIo,
  label: string,
  options: { ttyOnly?: boolean } = {},
): { update: (phase: string, fraction: number) => void; finish: () => void } {
  let lastPhase = '';
  let lastDraw = 0;
  let drawn = false;
  return {
    update(phase, fraction) {
      if (io.stderrIsTTY) {
        const now = Date.now();
        if (now - lastDraw < 100 && fraction < 1 && phase === lastPhase) return;
        lastDraw = now;
        lastPhase = phase;
        drawn = true;
        const width = 30;
        const filled = Math.round(fraction * width);
        io.stderr(
          `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}% ${phase.padEnd(24)}`,
        );
      } else if (!options.ttyOnly && phase !== lastPhase && phase !== 'reading') {
        // Not a terminal: a line per phase once the input has been read (errors stay one line).
        lastPhase = phase;
        io.stderr(`${label}: ${phase}\n`);
      }
    },
    /** Ends the bar's line (call it on success and on failure, so an error starts a fresh line). */
    finish() {
      if (drawn) io.stderr('\n');
      drawn = false;
    },
  };
}
