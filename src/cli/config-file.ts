import { readFileSync } from 'node:fs';
import { defaultConfig, type ReportConfig } from '../config/defaults.js';
import { UserError } from './errors.js';

/** Reads a `--config` file (defaults without one); the validator (zod) is loaded only then, to keep start-up fast. */
export async function readConfigFile(path: string | undefined): Promise<ReportConfig> {
  if (!path) return defaultConfig();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`--config ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const { parseConfig } = await import('../config/load.js');
  return parseConfig(text, path);
}
