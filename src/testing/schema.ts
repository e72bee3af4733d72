import { createRequire } from 'node:module';
import { REPORT_JSON_SCHEMA } from '../contract/report-schema.js';

const require = createRequire(import.meta.url);

interface Validator {
  (doc: unknown): boolean;
  errors?: { instancePath: string; message?: string }[] | null;
}

let compiled: Validator | null = null;

/** Validates a document against the published report JSON Schema (Ajv, draft 2020-12); returns the errors, [] if valid. */
export function reportSchemaErrors(doc: unknown): string[] {
  if (!compiled) {
    const mod = require('ajv/dist/2020.js') as { default: new (o: object) => { compile(s: object): Validator } };
    compiled = new mod.default({ allErrors: true, strict: true, allowUnionTypes: true }).compile(REPORT_JSON_SCHEMA);
  }
  if (compiled(doc)) return [];
  return (compiled.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
