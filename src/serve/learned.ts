import type { LearnedSection, Report } from '../contract/index.js';
import { makeTable, type Column } from '../learn/index.js';
import { learnedOfRow, optionalColumns, requiredColumns, type ColumnKind, type LoadedTable, type ModelBundle } from '../models/index.js';

/**
 * The service's model (`--model`, a file of `iolens train`) applied to stored job rows: the same learned section
 * `iolens report LOG --model M` adds to a report (prediction with its interval, OOD verdict, measured value, SHAP
 * contributions against the all-zero baseline, so a counter the job never used gets no blame, and the problems the
 * blame shares with the findings). The job page shows it and draws its waterfall.
 */

/** The model's input columns of some store rows as a table, or null when a row source lacks a column the model reads. */
export function rowsTable(bundle: ModelBundle, rows: readonly Readonly<Record<string, unknown>>[]): LoadedTable | null {
  const columns: Record<string, Column> = {};
  const kinds: Record<string, ColumnKind> = {};
  const required = new Set(requiredColumns(bundle));
  for (const name of new Set([...required, ...optionalColumns(bundle)])) {
    if (rows.length && !rows.every((r) => name in r)) {
      if (required.has(name)) return null;
      continue;
    }
    const kind = bundle.inputs.columnKinds[name] ?? (rows.some((r) => typeof r[name] === 'string') ? 'string' : 'numeric');
    kinds[name] = kind;
    columns[name] =
      kind === 'string'
        ? rows.map((r) => (r[name] === null || r[name] === undefined ? null : String(r[name])))
        : Float64Array.from(rows, (r) => {
            const v = r[name];
            return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number.NaN;
          });
  }
  return { name: bundle.inputs.table, table: makeTable(columns), kinds };
}

/** The learned section of one stored job row, or null when the row lacks a column the model reads. */
export function learnedFor(bundle: ModelBundle, modelFile: string, row: Readonly<Record<string, unknown>>, insights: Report['insights'] = []): LearnedSection | null {
  const loaded = rowsTable(bundle, [row]);
  return loaded ? learnedOfRow(bundle, modelFile, loaded, insights) : null;
}
