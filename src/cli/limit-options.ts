import type { Command } from 'commander';
import { DEFAULT_MAX_INFLATE, parseSize, sizeText } from '../util/limits.js';
import { UserError } from './errors.js';

/** Adds `--max-inflate <size>` (the per-input decompression budget) to a command. */
export function withMaxInflate(cmd: Command): Command {
  return cmd.option(
    '--max-inflate <size>',
    `decompression budget of one log (all its regions), Recorder block or .tar.gz: stop with an error past it (default ${sizeText(DEFAULT_MAX_INFLATE).replace(' ', '')}; e.g. 4GiB)`,
  );
}

/** The value of `--max-inflate`, checked; undefined when not given. */
export function maxInflateOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = parseSize(v);
  if (n === null) throw new UserError(`--max-inflate: expected a size like 4GiB, 512MiB or 100000000, got "${v}"`);
  return n;
}
