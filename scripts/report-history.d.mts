/** The new report's lines followed by the previous report (the file's text, or null) as history under `heading`. */
export function withHistory(current: string[], previous: string | null, heading: string): string[];
