import { TRACE_DIMS, type TraceDim } from '../contract/index.js';

/**
 * The catalogue of trace views: the dimensions a view can group calls by, and the named views with what each shows.
 * `iolens trace` computes the default ones; `--views` picks any of them or any other combination of 1–3
 * dimensions. docs/trace.md lists the same (a test keeps them in step).
 */

export type Dim = TraceDim;

export interface DimensionSpec {
  readonly id: Dim;
  /** Other names accepted in `--views` (WisIO's column names among them). */
  readonly aliases: readonly string[];
  /** Primary dimensions come from the trace; logical ones are derived from a primary one. */
  readonly kind: 'primary' | 'logical';
  readonly description: string;
}

export const DIMENSIONS: readonly DimensionSpec[] = [
  { id: 'file', aliases: ['files', 'file_name'], kind: 'primary', description: 'the file name (`<no file>` for calls without one)' },
  { id: 'proc', aliases: ['process', 'processes', 'rank', 'proc_name'], kind: 'primary', description: 'the process (Recorder or DXT rank, DFTracer `host:pid`)' },
  { id: 'time', aliases: ['time_range', 'window'], kind: 'primary', description: 'a time window (its start in seconds since the start of the first window)' },
  { id: 'app', aliases: [], kind: 'logical', description: 'the application' },
  { id: 'host', aliases: ['hostname', 'node'], kind: 'logical', description: 'the host' },
  { id: 'dir', aliases: ['directory', 'file_dir'], kind: 'logical', description: "the file's directory" },
  { id: 'pattern', aliases: ['file_pattern'], kind: 'logical', description: 'the file name with every digit run replaced by `*`' },
];

export interface ViewSpec {
  readonly name: string;
  readonly dims: readonly Dim[];
  /** primary / logical: one dimension; secondary: the last dimension inside the flagged records of the parent. */
  readonly kind: 'primary' | 'logical' | 'secondary';
  readonly description: string;
  /** Computed when `--views` is not given. */
  readonly default: boolean;
}

function secondary(name: string, description: string, isDefault = true): ViewSpec {
  return { name, dims: name.split('>') as Dim[], kind: 'secondary', description, default: isDefault };
}

/** The named views, in the order `iolens trace` reports them. */
export const VIEWS: readonly ViewSpec[] = [
  { name: 'file', dims: ['file'], kind: 'primary', description: 'one record per file: which files cost the I/O time', default: true },
  { name: 'proc', dims: ['proc'], kind: 'primary', description: 'one record per process: which processes are slow', default: true },
  { name: 'time', dims: ['time'], kind: 'primary', description: 'one record per time window: when the I/O time is spent', default: true },
  { name: 'app', dims: ['app'], kind: 'logical', description: 'one record per application', default: true },
  { name: 'host', dims: ['host'], kind: 'logical', description: 'one record per host', default: true },
  { name: 'dir', dims: ['dir'], kind: 'logical', description: 'one record per directory of the files', default: true },
  { name: 'pattern', dims: ['pattern'], kind: 'logical', description: 'one record per file-name pattern (`out_*.h5`)', default: true },
  secondary('proc>file', 'the files of the flagged processes'),
  secondary('file>proc', 'the processes of the flagged files'),
  secondary('time>file', 'the files of the flagged time windows'),
  secondary('file>time', 'the time windows of the flagged files'),
  secondary('time>proc', 'the processes of the flagged time windows'),
  secondary('proc>time', 'the time windows of the flagged processes'),
  secondary('dir>file', 'the files of the flagged directories', false),
  secondary('pattern>file', 'the files of the flagged file-name patterns', false),
  secondary('host>proc', 'the processes of the flagged hosts', false),
  secondary('time>proc>file', 'the files of the flagged processes inside the flagged time windows', false),
];

/** The views computed when none are asked for: WisIO's primary views and their ordered pairs, and the logical views. */
export const DEFAULT_VIEWS: readonly string[] = VIEWS.filter((v) => v.default).map((v) => v.name);

const ALIASES: ReadonlyMap<string, Dim> = new Map(DIMENSIONS.flatMap((d) => [[d.id, d.id] as const, ...d.aliases.map((a) => [a, d.id] as const)]));

/** Parses a view name such as `file`, `process>file` or `time>proc>file`; throws a RangeError with a message. */
export function parseView(name: string): Dim[] {
  const dims: Dim[] = [];
  for (const p of name.split('>').map((s) => s.trim().toLowerCase())) {
    const d = ALIASES.get(p);
    if (!d) throw new RangeError(`unknown view dimension "${p}" in "${name}" (known: ${TRACE_DIMS.join(', ')})`);
    if (dims.includes(d)) throw new RangeError(`view "${name}" repeats "${p}"`);
    dims.push(d);
  }
  if (dims.length === 0 || dims.length > 3) throw new RangeError(`view "${name}" must have 1 to 3 dimensions`);
  return dims;
}

export function viewName(dims: readonly Dim[]): string {
  return dims.join('>');
}
