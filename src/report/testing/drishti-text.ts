import type { Knob } from '../../config/knobs.js';

/** One insight as Drishti printed it (plain text output, `--code`). */
export interface DrishtiInsight {
  readonly code: string;
  readonly panel: string;
  readonly text: string;
  readonly details: string[];
}

export interface DrishtiOutput {
  readonly banner: Record<string, string>;
  readonly high: number;
  readonly warn: number;
  readonly recommendations: number;
  readonly insights: DrishtiInsight[];
  readonly thresholds: Knob[];
}

/** Drishti's THRESHOLDS panel labels → knob names. */
export const DRISHTI_THRESHOLD_LABELS: Record<string, Knob> = {
  'Minimum imbalance requests ratio': 'imbalance_operations',
  'Minimum size of a small request': 'small_bytes',
  'Maximum small requests ratio': 'small_requests',
  'Maximum small requests': 'small_requests_absolute',
  'Maximum misaligned requests ratio': 'misaligned_requests',
  'Maximum random request ratio': 'random_operations',
  'Maximum random requests': 'random_operations_absolute',
  'Maximum metadata process time per rank': 'metadata_time_rank',
  'Maximum read/write size difference ratio': 'imbalance_size',
  'Maximum ratio difference among ranks': 'imbalance_stragglers',
  'Maximum STDIO usage ratio': 'interface_stdio',
  'Minimum MPI collective operation usage ratio': 'collective_operations',
  'Minimum MPI collective operations': 'collective_operations_absolute',
};

/** Parses `drishti --code --size 200` text output (no colour) into its facts. */
export function parseDrishtiText(text: string): DrishtiOutput {
  const banner: Record<string, string> = {};
  const insights: DrishtiInsight[] = [];
  const thresholds: Knob[] = [];
  let panel = '';
  let high = -1, warn = -1, recommendations = -1;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s*│\s*$/, '');
    const p = /^╭─ (\S+)/.exec(line);
    if (p) {
      panel = p[1];
      continue;
    }
    const s = /(\d+) critical issues, (\d+) warnings, and (\d+) recommendations/.exec(line);
    if (s) {
      [high, warn, recommendations] = [Number(s[1]), Number(s[2]), Number(s[3])];
      continue;
    }
    if (panel === 'DRISHTI') {
      const b = /^│\s+(JOB|EXECUTABLE|DARSHAN|EXECUTION TIME|FILES|COMPUTE NODES|PROCESSES|HINTS):?\s*(.*)$/.exec(line);
      if (b) banner[b[1].trim()] = b[2].trim();
      continue;
    }
    if (panel === 'THRESHOLDS') {
      const t = /^│ (.+?):\s+\S/.exec(line);
      if (t) thresholds.push(DRISHTI_THRESHOLD_LABELS[t[1]] ?? (t[1] as Knob));
      continue;
    }
    const ins = /^│\s+▶ \[([A-Z]\d\d)\] (.*)$/.exec(line);
    if (ins) {
      insights.push({ code: ins[1], panel, text: ins[2], details: [] });
      continue;
    }
    const det = /^│ {4}↪ (.*)$/.exec(line);
    if (det && det[1] !== 'Recommendations:' && insights.length) insights[insights.length - 1].details.push(det[1]);
  }
  return { banner, high, warn, recommendations, insights, thresholds };
}

/** The comparable facts of a message: quoted names, and the numbers outside them (Drishti's literal "< 1MB" dropped). */
export function messageFacts(text: string): { names: string[]; numbers: string[] } {
  const names: string[] = [];
  const rest = text.replace(/"([^"]*)"/g, (_m, n: string) => {
    names.push(n);
    return ' ';
  });
  const numbers = rest.replace(/< 1MB/g, ' ').match(/\d+(?:\.\d+)?/g) ?? [];
  return { names, numbers };
}
