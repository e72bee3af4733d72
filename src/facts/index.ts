/** Public surface of the facts layer. */
export { FactContext, FactUnavailable } from './fact-context.js';
export { FactSource } from './source.js';
export { FACTS } from './registry.js';
export type * from './types.js';
