import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvDraft04Module from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@mcp-agent/core';
import { toToolSpecs } from '../testing/bench-catalog.js';
import { readCorpus } from '../testing/bench-data.js';
import { describeTool } from './deep-view.js';
import { argumentsFromView, requiredChains, viewRequiredChains } from './deep-view-test-helpers.js';

type FormatsPlugin = (ajv: Ajv | Ajv2020) => unknown;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin)) as FormatsPlugin;

// Validated as the dispatcher validates (packages/actions SchemaValidator): draft-04 or draft-07
// when the schema says so, else 2020-12, and the newest older draft that compiles a schema its
// own draft refuses; formats on; strict off; $schema/$id dropped.
const ajv2020 = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
const ajv07 = new Ajv({ allErrors: true, strict: false, validateFormats: true });
const ajv04 = new ajvDraft04Module.default({
  allErrors: true,
  strict: false,
  validateFormats: true,
});
addFormats(ajv2020);
addFormats(ajv07);
addFormats(ajv04);
const compiled = new Map<string, ValidateFunction>();
function compile(schema: JsonObject): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    const { $id: _id, $schema, ...rest } = schema;
    const draft = typeof $schema === 'string' ? $schema : '';
    const named07 = /draft-0[67]\/schema/.test(draft);
    if (/draft-0[34]\/schema/.test(draft)) validate = ajv04.compile(rest);
    else
      try {
        validate = (named07 ? ajv07 : ajv2020).compile(rest);
      } catch (error) {
        for (const older of named07 ? [ajv04] : [ajv07, ajv04])
          try {
            validate = older.compile(rest);
            break;
          } catch {
            // the next older draft
          }
        if (validate === undefined) throw error;
      }
    compiled.set(key, validate);
  }
  return validate;
}

const CATALOGS = fileURLToPath(new URL('../../../../../shared/bench/catalogs/', import.meta.url));

describe('deep view over every tool of the bench catalogs', () => {
  const folders = readdirSync(CATALOGS).sort();

  it('reads the catalogs in place', () => {
    expect(folders).toEqual(expect.arrayContaining(['real-mcp-tools', 'toolsdk-distractors']));
  });

  it.each(folders)(
    '%s: every required field at any depth is shown, and arguments built from the view validate',
    (folder) => {
      const specs = toToolSpecs(readCorpus(`${CATALOGS}${folder}`));
      const missing: string[] = [];
      const invalid: string[] = [];
      const uncompilable: string[] = [];
      const cut: string[] = [];
      let validated = 0;
      let validatedWithOptional = 0;
      const invalidWithOptional: string[] = [];
      for (const spec of specs) {
        const view = describeTool(spec);
        if (JSON.stringify(view) !== JSON.stringify(describeTool(spec, { full: true })))
          cut.push(spec.id);
        const shown = viewRequiredChains(view);
        for (const chain of requiredChains(spec.inputSchema))
          if (!shown.has(chain)) missing.push(`${spec.id}: ${chain}`);
        let validate: ValidateFunction;
        try {
          validate = compile(spec.inputSchema ?? { type: 'object' });
        } catch (error) {
          uncompilable.push(`${spec.id}: ${(error as Error).message}`);
          continue;
        }
        const args = argumentsFromView(view);
        if (validate(args)) validated += 1;
        else
          invalid.push(
            `${spec.id}: ${JSON.stringify(args).slice(0, 300)} → ${ajv2020.errorsText(validate.errors)}`,
          );
        const everything = argumentsFromView(view, { optional: true });
        if (validate(everything)) validatedWithOptional += 1;
        else
          invalidWithOptional.push(
            `${spec.id}: ${JSON.stringify(everything).slice(0, 300)} → ${ajv2020.errorsText(validate.errors)}`,
          );
      }
      // The figures of the report: printed so that a run shows them.
      console.log(
        JSON.stringify({
          folder,
          tools: specs.length,
          compiled: specs.length - uncompilable.length,
          validated,
          validated_with_optional: validatedWithOptional,
          invalid_with_optional: invalidWithOptional,
          missing_required: missing.length,
          cut_by_budgets: cut,
          uncompilable,
        }),
      );
      expect(missing).toEqual([]);
      expect(invalid).toEqual([]);
      expect(uncompilable).toEqual([]);
      expect(validated).toBe(specs.length - uncompilable.length);
    },
  );
});
