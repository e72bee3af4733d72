import { upgradeReport, type Report } from '../../contract/index.js';
import type { Store } from '../db.js';
import { readRows } from './read.js';

/**
 * Report documents kept in the store (`reports`). Every read goes through the report upgrader: a document written
 * by an earlier IOLens (report schema 2 in a store of schema 4, say) comes back as today's Report, never cast.
 */

/**
 * Parses and upgrades one stored report document. Null when the text is not JSON or the upgrader refuses it (not a
 * report, or a report schema newer than this IOLens): the caller treats the job as one without a stored report.
 */
export function upgradeStoredReport(text: unknown): Report | null {
  if (typeof text !== 'string') return null;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  try {
    return upgradeReport(doc);
  } catch {
    return null;
  }
}

/** The stored report of job `hash` (the whole 64-digit hash), upgraded to today's schema; null when none. */
export async function reportByHash(store: Store, hash: string): Promise<Report | null> {
  const [r] = await readRows(store, 'SELECT report FROM reports WHERE hash = ?', [hash]);
  return r ? upgradeStoredReport(r.report) : null;
}
