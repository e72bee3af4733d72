import { z } from 'zod';
import type { CheckOverride, ReportConfig } from './defaults.js';
import { ALL_KNOB_NAMES, KNOBS, defaultKnobValues, type Knob, type KnobValues } from './knobs.js';
import { UsageError } from '../contract/errors.js';
import { LEVELS, type Level } from '../contract/index.js';

/**
 * IOLens report configuration. Two JSON forms are accepted:
 *
 * - Drishti's `--config` form: `{category: {name: value}}`, the knob being `category_name`
 *   (e.g. `{"small": {"requests": 0.5, "requests_absolute": 100}}`);
 * - IOLens' form: `{"thresholds": {"small_requests": 0.5}, "checks": {"P05": "off", "P06": {"level": "WARN"}}}`.
 *
 * Parsing is pure (text in, config out); reading the file is the CLI's job.
 */
export type { CheckOverride, ReportConfig } from './defaults.js';
export { defaultConfig } from './defaults.js';

export class ConfigError extends UsageError {}

const knobValue = z.number().finite();
const checkOverride = z.union([
  z.literal('off'),
  z.literal('on'),
  z.object({ enabled: z.boolean().optional(), level: z.enum(LEVELS).optional() }).strict(),
]);
const iolensForm = z
  .object({
    thresholds: z.record(z.string(), knobValue).optional(),
    checks: z.record(z.string().regex(/^[A-Z]\d\d$/), checkOverride).optional(),
  })
  .strict();
const drishtiForm = z.record(z.string(), z.record(z.string(), knobValue));

function setKnob(out: Record<Knob, number>, key: string, value: number, where: string): void {
  if (!(ALL_KNOB_NAMES as readonly string[]).includes(key)) {
    throw new ConfigError(`${where}: unknown threshold '${key}' (known: ${ALL_KNOB_NAMES.join(', ')})`);
  }
  const spec = KNOBS[key as Knob] as { min?: number; max?: number };
  if (spec.min !== undefined && value < spec.min) throw new ConfigError(`${where}: ${key} must be ≥ ${spec.min}, got ${value}`);
  if (spec.max !== undefined && value > spec.max) throw new ConfigError(`${where}: ${key} must be ≤ ${spec.max}, got ${value}`);
  out[key as Knob] = value;
}

/** Parses a configuration file's text (either form). Throws ConfigError with a one-line message. */
export function parseConfig(text: string, where = 'config'): ReportConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${where}: not valid JSON (${(err as Error).message})`);
  }
  const knobs = { ...defaultKnobValues() } as Record<Knob, number>;
  const checks: Record<string, CheckOverride> = {};
  if (json && typeof json === 'object' && !Array.isArray(json) && ('thresholds' in json || 'checks' in json)) {
    const r = iolensForm.safeParse(json);
    if (!r.success) throw new ConfigError(`${where}: ${r.error.issues[0].path.join('.')}: ${r.error.issues[0].message}`);
    for (const [k, v] of Object.entries(r.data.thresholds ?? {})) setKnob(knobs, k, v, where);
    for (const [code, o] of Object.entries(r.data.checks ?? {})) {
      checks[code] = o === 'off' ? { enabled: false } : o === 'on' ? { enabled: true } : { enabled: o.enabled ?? true, level: o.level };
    }
    return { knobs, checks };
  }
  const r = drishtiForm.safeParse(json);
  if (!r.success) throw new ConfigError(`${where}: expected {category: {name: number}} or {thresholds, checks}`);
  for (const [cat, entries] of Object.entries(r.data)) {
    for (const [name, v] of Object.entries(entries)) setKnob(knobs, `${cat}_${name}`, v, where);
  }
  return { knobs, checks };
}
