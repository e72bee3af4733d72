import type { Check, CheckContext, CheckMeta } from './types.js';

/** Where check docs live; `docsUrl` is derived from the code, never written by hand. */
export const DOCS_BASE = 'docs/checks/';

/**
 * Declares a check (the default export of every check file). The generics tie message ids, recommendation ids and
 * option names to `meta`, so a misspelt id is a compile error (typescript-eslint's `createRule`).
 */
export function defineCheck<O extends string, M extends string, R extends string>(spec: {
  meta: CheckMeta<O, M, R>;
  run(ctx: CheckContext<O, M, R>): void;
  /** Where a user rule is documented (its rule file); built-in checks have their page under docs/checks/. */
  docsUrl?: string;
}): Check<O, M, R> {
  const user = spec.meta.source === 'user';
  if (!user && !/^[A-Z]\d\d$/.test(spec.meta.code)) throw new Error(`check code '${spec.meta.code}' is not like P05`);
  const meta = Object.freeze({ ...spec.meta, docsUrl: spec.docsUrl ?? (user ? '' : `${DOCS_BASE}${spec.meta.code}.md`) });
  return Object.freeze({ meta, run: spec.run });
}
