import { defineFact } from './define-fact.js';

export default defineFact({
  name: 'hints',
  description: "The `h` job metadata: the MPI-IO hints Darshan used to write its own log (not the application's).",
  compute({ log }) {
    let raw: string | null = null;
    for (const [k, v] of log.job.metadata) if (k === 'h') raw = v; // the last one wins, as in a Python dict
    const entries: [string, string][] = [];
    const malformed: string[] = [];
    if (raw) {
      for (const part of raw.split(';')) {
        if (part === '') continue;
        const eq = part.indexOf('=');
        if (eq < 0) malformed.push(part);
        else entries.push([part.slice(0, eq), part.slice(eq + 1)]);
      }
    }
    return { raw, entries, malformed };
  },
});
