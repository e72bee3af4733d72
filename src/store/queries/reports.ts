import type { Report } from '../../contract/index.js';
import type { Store } from '../db.js';
import { jsonCell, readRows } from './read.js';

/** Report documents kept in the store (`reports`). */

/** The stored report of job `hash` (the whole 64-digit hash); null when none (or not JSON). */
export async function reportByHash(store: Store, hash: string): Promise<Report | null> {
  const [r] = await readRows(store, 'SELECT report FROM reports WHERE hash = ?', [hash]);
  return r ? (jsonCell(r.report) as Report | null) : null;
}
