import { defaultKnobValues, type KnobValues } from './knobs.js';
import type { Level } from '../contract/index.js';

/** A per-code override from the configuration: disable the check or change its level. */
export interface CheckOverride {
  readonly enabled: boolean;
  readonly level?: Level;
}

/** The merged configuration a report is built with (knob values and per-check overrides). */
export interface ReportConfig {
  readonly knobs: KnobValues;
  readonly checks: Readonly<Record<string, CheckOverride>>;
}

/** Drishti's defaults, no overrides. Kept free of zod so building a report does not load the validator. */
export function defaultConfig(): ReportConfig {
  return { knobs: defaultKnobValues(), checks: {} };
}
