import { ADVICE, COST_SEMANTICS, LEVELS, PANELS, PROBLEMS, UNITS, MODES } from './finding.js';
import { ACCESS_SIZE_BINS, FILE_SIZE_BINS } from './charts.js';
import { INPUT_FORMATS, IO_OPS, REPORT_SCHEMA_VERSION, TRACE_DIMS, TRACE_METRICS } from './report.js';

/**
 * The report as a JSON Schema (draft 2020-12), published as `docs/report.schema.json` (a test keeps that file equal
 * to this object and validates every report the tests produce against it). Written beside the TypeScript types of
 * `report.ts`; objects are closed (`additionalProperties: false`) so that a field added to the code but not here, or
 * the other way round, fails the tests.
 */

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const num: Schema = { type: 'number' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const strings: Schema = { type: 'array', items: str };

function obj(required: Record<string, Schema>, optional: Record<string, Schema> = {}): Schema {
  return { type: 'object', properties: { ...required, ...optional }, required: Object.keys(required), additionalProperties: false };
}
const arr = (items: Schema): Schema => ({ type: 'array', items });
const nullable = (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] });
const oneOfEnum = (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] });
const dict = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });

const level = oneOfEnum(LEVELS);
const unit = oneOfEnum(UNITS);
const messageData = dict({ type: ['number', 'string'] });
const recordKey = dict({ type: ['number', 'string'] });

const subject: Schema = {
  oneOf: [
    obj({ kind: { const: 'file' }, id: str, name: str }, { rank: int }),
    obj({ kind: { const: 'rank' }, rank: int }),
    obj({ kind: { const: 'job' } }),
    obj({ kind: { const: 'record' }, view: str, key: recordKey }),
  ],
};

const finding = obj(
  {
    code: str,
    level,
    panel: oneOfEnum(PANELS),
    messageId: str,
    message: str,
    data: messageData,
    evidence: arr(obj({ name: str, value: num, unit, source: str })),
    thresholds: arr(obj({ option: str, knob: str, value: num, unit })),
    details: arr(obj({ messageId: str, message: str, data: messageData, subject })),
    recommendations: arr(obj({ id: str, text: str }, { snippet: str, advises: oneOfEnum(ADVICE) })),
  },
  {
    problem: oneOfEnum(PROBLEMS),
    cost: obj({
      seconds: { type: 'number', minimum: 0 },
      semantics: oneOfEnum(COST_SEMANTICS),
      ioShare: { type: 'number', minimum: 0, maximum: 1 },
      runShare: nullable({ type: 'number', minimum: 0, maximum: 1 }),
      basis: oneOfEnum(['time', 'bound']),
    }),
    savings: obj({
      seconds: { type: 'number', minimum: 0 },
      low: { type: 'number', minimum: 0 },
      high: { type: 'number', minimum: 0 },
      semantics: oneOfEnum(COST_SEMANTICS),
      basis: oneOfEnum(['job', 'reference', 'bound']),
      reference: str,
    }),
    detailsOmitted: { type: 'integer', minimum: 1 },
    docs: str,
    caveats: strings,
    source: oneOfEnum(['check', 'model']),
    model: obj({ file: str, table: str, target: str }),
  },
);

const time = obj({ epochSeconds: num, iso: str });

const job = obj({
  jobId: str,
  exe: str,
  command: str,
  logName: str,
  uid: str,
  startTime: time,
  endTime: time,
  durationSeconds: num,
  processes: int,
  nodes: obj({ count: nullable(int), source: nullable(oneOfEnum(['sacct', 'option'])) }),
  files: obj({ total: int, stdio: int, posix: int, posixOnly: int, mpiio: int }),
  hints: obj({
    raw: nullable(str),
    entries: arr({ type: 'array', prefixItems: [str, str], minItems: 2, maxItems: 2 }),
    source: oneOfEnum(['darshan-log-writer', 'application', 'none']),
  }),
  modules: strings,
  darshanVersion: str,
});

const ioOp = oneOfEnum(IO_OPS);
const io = obj({
  runTime: num,
  ioTime: num,
  ioShare: nullable(num),
  cumulativeIoTime: num,
  overlapSeconds: num,
  processes: int,
  bytes: num,
  breakdown: arr(obj({ layer: str, op: ioOp, seconds: num, cumulativeSeconds: num, beneath: dict(num) }, { slowestIsMean: { const: true } })),
  notRecorded: arr(obj({ layer: str, op: ioOp, reason: str })),
  files: arr(obj({ name: str, layer: str, seconds: num, cumulativeSeconds: num, ops: obj(Object.fromEntries(IO_OPS.map((o) => [o, num]))), ranks: num })),
  ranks: nullable(obj({ count: int, slowest: obj({ rank: int, seconds: num }), fastest: obj({ rank: int, seconds: num }), median: num, exact: bool })),
  source: oneOfEnum(['counters', 'counters+dxt', 'trace']),
  layers: arr(obj({ layer: str, bytesRead: num, bytesWritten: num, cumulativeTime: num, slowestRankTime: num, throughput: nullable(num) })),
}, {
  notStorage: obj({ seconds: num, cumulativeSeconds: num, count: int, files: arr(obj({ name: str, reason: str, seconds: num, cumulativeSeconds: num })) }),
});

const verdict = obj({
  text: str,
  ioBound: bool,
  sink: nullable(obj({ layer: str, op: ioOp, seconds: num, cumulativeSeconds: num, share: num, file: nullable(str) }, { storage: { const: false } })),
  findings: strings,
});

const completeness = obj({
  complete: bool,
  modules: arr(obj({ module: str, status: oneOfEnum(['partial', 'damaged', 'unreliable']), detail: str })),
});

const categoryStats = obj({ ops: num, bytes: num, time: num, opsShare: num, bytesShare: num, timeShare: num });

const trace = obj({
  timeOrigin: nullable(num),
  details: { type: 'object' },
  options: obj({ views: strings, layers: strings, granularity: num, smallBytes: num, minTimeShare: num, top: int }),
  severity: obj({ metric: str, description: str, unit: str, threshold: num }),
  characteristics: obj({
    runtime: num,
    ioTime: num,
    ops: num,
    bytes: num,
    read: categoryStats,
    write: categoryStats,
    metadata: categoryStats,
    sync: categoryStats,
    other: categoryStats,
    processes: int,
    files: int,
    hosts: int,
    apps: int,
    eventsTotal: int,
    eventsAnalyzed: int,
    callsByLayer: dict(int),
    callsByFunction: dict(int),
    notRecorded: strings,
  }),
  views: arr(
    obj({
      name: str,
      dims: arr(oneOfEnum(TRACE_DIMS)),
      parent: nullable(str),
      records: int,
      bottlenecks: int,
      byLevel: obj(Object.fromEntries(LEVELS.map((l) => [l, int]))),
      explained: int,
      top: arr(obj({ key: recordKey, level, score: obj({ metric: str, value: num, badness: num }), metrics: obj(Object.fromEntries(TRACE_METRICS.map((m) => [m, num]))), findings: strings })),
    }),
  ),
  coverage: obj({ bottlenecks: int, explained: int, share: num }),
});

const learnedProblem = obj({ problem: oneOfEnum(PROBLEMS), findings: strings, features: strings }, { shap: num });

const learned = obj({
  model: obj({
    file: str,
    table: str,
    target: str,
    unit: str,
    members: strings,
    best: str,
    rows: int,
    timeSpan: nullable(obj({ from: { type: ['string', 'number'] }, to: { type: ['string', 'number'] } })),
    validation: obj({ rmse: num, r2: num, medianErrorFactor: num }),
  }, {
    baselineValidation: obj({ rmse: num, r2: num, medianErrorFactor: num }),
  }),
  predicted: num,
  low: num,
  high: num,
  measured: nullable(num),
  ood: bool,
  oodReasons: strings,
  baseline: oneOfEnum(['zero', 'path', 'typical']),
  base: num,
  output: num,
  contributors: arr(
    obj({
      feature: str,
      value: { type: ['number', 'string', 'null'] },
      shap: num,
      factor: num,
      text: str,
      problems: arr(oneOfEnum(PROBLEMS)),
    }, {
      role: oneOfEnum(['behaviour', 'configuration', 'context']),
      against: oneOfEnum(['zero', 'typical', 'own']),
      reference: { type: ['number', 'string', 'null'] },
      alike: strings,
      beyondData: bool,
    }),
  ),
  corroborated: arr(learnedProblem),
  modelOnly: arr(learnedProblem),
  findingsOnly: arr(learnedProblem),
  summary: str,
}, {
  notUsed: str,
});

const nums = arr(num);
const fixedNums = (n: number): Schema => ({ type: 'array', items: num, minItems: n, maxItems: n });

const charts = obj(
  {
    ioTime: arr(obj({ module: str, read: num, write: num, metadata: num })),
    operations: arr(obj({ module: str, ops: arr(obj({ op: str, count: num })) })),
    accessSizes: arr(obj({ module: str, read: fixedNums(ACCESS_SIZE_BINS.length), write: fixedNums(ACCESS_SIZE_BINS.length) })),
    files: arr(obj({ module: str, total: int, readOnly: int, writeOnly: int, readWrite: int, noData: int, bytesRead: num, bytesWritten: num, sizes: fixedNums(FILE_SIZE_BINS.length) })),
    heatmap: nullable(obj({ binSeconds: num, layers: arr(obj({ layer: str, read: nums, write: nums, activeRanks: nums, ranksPerRow: int, matrix: arr(nums) })) })),
    dxt: arr(obj({ module: str, total: int, shown: int, ranks: int, files: strings, rank: nums, file: nums, write: nums, start: nums, end: nums, offset: nums, length: nums })),
  },
  { timeline: obj({ windowSeconds: num, start: nums, readBytes: nums, writeBytes: nums, readTime: nums, writeTime: nums, metadataTime: nums, ops: nums }) },
);

export const REPORT_JSON_SCHEMA: Schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://iolens.dev/schemas/report-v${REPORT_SCHEMA_VERSION}.json`,
  title: `IOLens report (schema ${REPORT_SCHEMA_VERSION})`,
  ...obj(
    {
      schemaVersion: { const: REPORT_SCHEMA_VERSION },
      tool: obj({ name: { const: 'iolens' }, version: str }),
      mode: oneOfEnum(MODES),
      input: obj({ format: oneOfEnum(INPUT_FORMATS), paths: strings, warnings: strings }, { events: int, sources: int }),
      job,
      io,
      completeness,
      insights: arr(finding),
      summary: obj({ high: int, warn: int, ok: int, info: int, recommendations: int }),
      thresholds: arr(obj({ knob: str, label: str, value: num, unit, triggered: bool })),
      checks: arr(obj({ code: str, status: oneOfEnum(['fired', 'quiet', 'notApplicable', 'error']) }, { reason: str })),
      notes: strings,
      messages: dict(str),
    },
    {
      verdict,
      snippets: dict(obj({ language: str, text: str })),
      trace,
      learned,
      charts,
    },
  ),
};
