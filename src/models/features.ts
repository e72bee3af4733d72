import { readFileSync } from 'node:fs';
import type { FeatureColumn } from '../contract/features.js';
import { InputError, UsageError } from '../contract/errors.js';
import { FEATURE_SETS, FEATURE_SETS_BY_ID } from '../features/registry.js';
import type { FeatureSpec } from '../learn/index.js';
import type { ColumnKind } from './log-rows.js';

/**
 * Which columns a model learns from, and how each enters it: the contract between model files and the
 * feature-set registry (src/features/). A model trained on the `jobs` table's stored features, or on a preset,
 * records the id and version of every feature set it used; `predict` refuses a model whose sets have since
 * changed meaning (a new version), instead of feeding it columns of another meaning.
 *
 * - **Time columns are never default features.** A column in seconds, or named `…_time`, is part of what the
 *   throughput is measured from (bytes over time): it would predict the answer from the answer.
 * - **Transforms** follow the column's unit: values the feature set already log-scales (`log10`) or that are shares
 *   (`ratio`) enter as they are; counts and bytes get sign(x)·log10(1+|x|); text columns become one-hot categories.
 */

/** The `preset` names: the feature sets meant for learning, by id. */
export const PRESETS = ['aiio', 'gauge'] as const;
export type Preset = (typeof PRESETS)[number];

/** A feature set a model used: id and version, checked again at prediction. */
export interface FeatureSetRef {
  readonly id: string;
  readonly version: number;
}

/** The features a model learns from, and where the list came from. */
export interface FeatureChoice {
  readonly specs: FeatureSpec[];
  /** `default` (the jobs table's stored features), `preset`, or `file` (--features). */
  readonly origin: 'default' | 'preset' | 'file';
  readonly preset: Preset | null;
  readonly sets: FeatureSetRef[];
}

interface Located {
  readonly set: (typeof FEATURE_SETS)[number];
  readonly column: FeatureColumn;
}

/** Store column name → its feature set and column definition. */
const BY_STORE_NAME: ReadonlyMap<string, Located> = new Map(FEATURE_SETS.flatMap((set) => set.columns.map((column) => [`${set.columnPrefix}${column.name}`, { set, column }] as const)));

/** The feature-set column a store column comes from, if any. */
export function featureColumnOf(name: string): Located | null {
  return BY_STORE_NAME.get(name) ?? null;
}

/** Whether a feature-set column measures time (seconds, or a `…_time` magnitude): never a default feature. */
export function isTimeColumn(c: FeatureColumn): boolean {
  return c.unit === 'seconds' || /_time$/.test(c.name);
}

/** The engine's spec for a numeric store column: no transform for values already log-scaled or shares. */
function numericSpec(name: string): FeatureSpec {
  const loc = featureColumnOf(name);
  const none = loc && (loc.column.unit === 'log10' || loc.column.unit === 'ratio');
  return { name, kind: 'numeric', transform: none ? 'none' : 'slog' };
}

function setColumns(id: string): FeatureSpec[] {
  const set = FEATURE_SETS_BY_ID.get(id);
  if (!set) throw new UsageError(`unknown feature set ${id}`);
  return set.columns.filter((c) => !isTimeColumn(c) && c.type !== 'varchar').map((c) => numericSpec(`${set.columnPrefix}${c.name}`));
}

/** The `jobs` table's stored features: every feature set's columns except time columns. */
export function defaultJobFeatures(): FeatureChoice {
  return { specs: FEATURE_SETS.flatMap((s) => setColumns(s.id)), origin: 'default', preset: null, sets: FEATURE_SETS.map((s) => ({ id: s.id, version: s.version })) };
}

/** A preset: one feature set's columns except time columns. */
export function presetFeatures(preset: string): FeatureChoice {
  if (!(PRESETS as readonly string[]).includes(preset)) throw new UsageError(`unknown preset ${preset}; known: ${PRESETS.join(', ')}`);
  const set = FEATURE_SETS_BY_ID.get(preset)!;
  return { specs: setColumns(preset), origin: 'preset', preset: preset as Preset, sets: [{ id: set.id, version: set.version }] };
}

/** One line of a features file: a column, and optionally how it enters the model. */
export interface FeatureLine {
  readonly name: string;
  readonly kind?: 'numeric' | 'categorical';
  readonly transform?: 'slog' | 'none';
}

/**
 * A features file: one column per line; `#` starts a comment; blank lines are skipped. A line may add `numeric`
 * or `categorical` (default: by the column's type) and `slog` or `none` (numeric transform; default by unit).
 */
export function parseFeatureFile(text: string, file = 'features file'): FeatureLine[] {
  const out: FeatureLine[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const [name, ...words] = line.split(/\s+/);
    let kind: FeatureLine['kind'];
    let transform: FeatureLine['transform'];
    for (const w of words) {
      if (w === 'numeric' || w === 'categorical') kind = w;
      else if (w === 'slog' || w === 'none') transform = w;
      else throw new InputError(`${file}:${i + 1}: unknown word '${w}' (a line is: column [numeric|categorical] [slog|none])`);
    }
    if (kind === 'categorical' && transform) throw new InputError(`${file}:${i + 1}: a categorical column takes no transform`);
    if (seen.has(name)) throw new InputError(`${file}:${i + 1}: ${name} is listed twice`);
    seen.add(name);
    out.push({ name, ...(kind ? { kind } : {}), ...(transform ? { transform } : {}) });
  });
  if (out.length === 0) throw new InputError(`${file}: no columns listed`);
  return out;
}

/** Reads a features file (one clear line when it cannot be read). */
export function readFeatureFile(path: string): FeatureLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError(`${path}: cannot read the features file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseFeatureFile(text, path);
}

/** The specs of a features file against a table's column kinds; a column absent or of the wrong kind fails. */
export function fileFeatures(lines: readonly FeatureLine[], kinds: Readonly<Record<string, ColumnKind>>, table: string): FeatureChoice {
  const missing = lines.filter((l) => !(l.name in kinds)).map((l) => l.name);
  if (missing.length) throw new InputError(`table ${table} has no column${missing.length > 1 ? 's' : ''} ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}`);
  const specs = lines.map((l): FeatureSpec => {
    const kind = l.kind ?? (kinds[l.name] === 'numeric' ? 'numeric' : 'categorical');
    if (kind === 'numeric' && kinds[l.name] !== 'numeric') throw new InputError(`column ${l.name} of ${table} holds text; it can only be categorical`);
    if (kind === 'categorical') return { name: l.name, kind: 'categorical' };
    return l.transform ? { name: l.name, kind: 'numeric', transform: l.transform } : numericSpec(l.name);
  });
  // A file that lists feature-set columns is held to those sets' versions too.
  const ids = [...new Set(lines.map((l) => featureColumnOf(l.name)?.set.id).filter((x): x is string => !!x))];
  return { specs, origin: 'file', preset: null, sets: FEATURE_SETS.filter((s) => ids.includes(s.id)).map((s) => ({ id: s.id, version: s.version })) };
}

/** Fails when a feature set a model used has changed version since (its columns may mean something else now). */
export function checkFeatureSets(sets: readonly FeatureSetRef[]): void {
  for (const s of sets) {
    const now = FEATURE_SETS_BY_ID.get(s.id);
    if (!now) throw new InputError(`the model was trained on feature set ${s.id}, which this IOLens does not have; retrain it`);
    if (now.version !== s.version) throw new InputError(`the model was trained on feature set ${s.id} version ${s.version}; this IOLens computes version ${now.version}: retrain it`);
  }
}

/**
 * Feature sets whose missing values mean "this module is not in the log" (`totals`: a module absent gives NULL, not
 * 0). A job whose log has no MPI-IO module did no MPI-IO, so for learning these count as 0: the zero baseline is
 * then exactly "no I/O through that module" (a NaN there would be measured against 0 and blamed), and the linear
 * models and the MLP, which impute missing values with the training mean, see what the job did. Applied the same
 * way at training and at prediction, and recorded in the model file.
 */
export const ZERO_WHEN_MISSING_SETS: readonly string[] = ['totals'];

/** The columns among `names` whose missing values count as 0 (see ZERO_WHEN_MISSING_SETS). */
export function zeroWhenMissing(names: readonly string[]): string[] {
  return names.filter((n) => {
    const loc = featureColumnOf(n);
    return loc !== null && ZERO_WHEN_MISSING_SETS.includes(loc.set.id) && loc.column.type !== 'varchar';
  });
}
