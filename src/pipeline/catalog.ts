import { CHECKS } from '../checks/registry.js';

/** One check of the catalogue, as the job store keeps it (to name the problem of each stored insight). */
export interface CatalogEntry {
  readonly code: string;
  readonly problem: string | null;
  readonly title: string;
  readonly defaultLevel: string;
}

/** Every check of the report, with its fixed problem tag. */
export function checkCatalog(): CatalogEntry[] {
  return CHECKS.map((c) => ({ code: c.meta.code, problem: c.meta.problem ?? null, title: c.meta.failureTitle, defaultLevel: c.meta.level }));
}
