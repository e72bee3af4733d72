import { MODEL_KINDS, type ModelKind } from '../learn/index.js';
import { UserError } from './errors.js';

/** Flags and helpers shared by `train`, `predict` and `explain`. */

/** A comma-separated list (`gbdt,forest`), empty items dropped. */
export function listOption(v: string | undefined): string[] {
  return v === undefined ? [] : v.split(',').map((s) => s.trim()).filter(Boolean);
}

/** `--models LIST`: known families only. */
export function modelsOption(v: string | undefined, flag = '--models'): ModelKind[] | undefined {
  if (v === undefined) return undefined;
  const list = listOption(v);
  if (list.length === 0) throw new UserError(`${flag} needs at least one model (${MODEL_KINDS.join(', ')})`);
  for (const m of list) if (!(MODEL_KINDS as readonly string[]).includes(m)) throw new UserError(`${flag}: unknown model ${m}; known: ${MODEL_KINDS.join(', ')}`);
  return list as ModelKind[];
}

/** A non-negative integer flag. */
export function intOption(v: string | undefined, flag: string, min = 0): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > 2 ** 31 - 1) throw new UserError(`${flag} needs an integer ≥ ${min}, got '${v}'`);
  return n;
}

/** `--baseline typical|zero|path` (default typical: docs/learn.md, "What blame is weighed against"). */
export function baselineOption(v: string | undefined): 'typical' | 'zero' | 'path' {
  if (v === undefined || v === 'typical' || v === 'zero' || v === 'path') return v ?? 'typical';
  throw new UserError(`--baseline takes typical, zero or path, got '${v}'`);
}

/** `--ensemble average|closest`. */
export function ensembleOption(v: string | undefined): 'average' | 'closest' | undefined {
  if (v === undefined || v === 'average' || v === 'closest') return v;
  throw new UserError(`--ensemble takes average or closest, got '${v}'`);
}

/** A number for a table: shortest text that reads back to the same double (NaN → empty). */
export function cellNumber(v: number): string {
  return Number.isFinite(v) ? String(v) : '';
}
