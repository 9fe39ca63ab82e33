import { fieldValidationError, type FieldError } from '../core/errors.js';
import { isScalar, type Model, type ScalarAttribute } from '../schema/types.js';
import { blocksErrors } from './blocks-rule.js';
import { fieldLabel } from './field-label.js';
import { wellFormedJson } from './well-formed-json.js';
import { compileScalarRule, typeError, yupTypeName, type RuleResult, type ScalarRule } from './scalar-rules.js';

/** How a write is validated: creation requires required attributes; drafts skip required checks. */
export interface ValidationMode {
  readonly creating: boolean;
  readonly draft: boolean;
}

/**
 * Where a nested value is validated: its path from the document root (`['seo', 'keywords', '0']`)
 * and the list its problems are added to, so one response reports every problem of the tree.
 */
export interface ValidationSite {
  readonly path: readonly string[];
  readonly errors: FieldError[];
}

/**
 * Validates the scalar attributes present in `data` and returns them cast (`"42"` → 42,
 * `"true"` → true, biginteger → exact string). Without a `site`, throws Strapi's ValidationError
 * listing every problem (`details.errors[]` with `path`, `message`, `name`, `value`); with one,
 * adds the problems to `site.errors` (paths and messages prefixed with `site.path`).
 */
export type DataValidator = (
  data: Readonly<Record<string, unknown>>,
  mode: ValidationMode,
  site?: ValidationSite,
) => Record<string, unknown>;

interface CompiledAttribute {
  readonly attribute: ScalarAttribute;
  readonly rule: ScalarRule;
  readonly typeName: string | null;
}

/** Compiles the validator of one model, once, at start. */
export function compileValidator(model: Model): DataValidator {
  const compiled: CompiledAttribute[] = [];
  for (const attribute of model.attributes.values()) {
    if (!isScalar(attribute) || !attribute.writable) continue;
    compiled.push({ attribute, rule: compileScalarRule(attribute), typeName: yupTypeName(attribute) });
  }

  return (data, mode, site) => {
    const values: Record<string, unknown> = {};
    const errors: FieldError[] = site?.errors ?? [];
    const before = errors.length;
    const prefix = site?.path ?? [];
    for (const { attribute, rule, typeName } of compiled) {
      const name = attribute.name;
      const path = [...prefix, name];
      const label = fieldLabel(path);
      const value = data[name];
      const enforceRequired = attribute.required && !mode.draft;
      if (value === undefined) {
        if (enforceRequired && mode.creating)
          errors.push({ path, message: `${label} must be defined.`, name: 'ValidationError' });
        continue;
      }
      if (value === null) {
        if (!enforceRequired) values[name] = null;
        else if (typeName === null)
          errors.push({ path, message: `${label} must be defined.`, name: 'ValidationError', value: null });
        else errors.push(...fieldErrors(path, typeError(label, typeName, null, null)));
        continue;
      }
      if (attribute.type === 'blocks') {
        const problems = blocksErrors(path, value);
        if (problems.length === 0) values[name] = wellFormedJson(value);
        else errors.push(...problems);
        continue;
      }
      const result = rule(value, label);
      if (result.ok) values[name] = result.value;
      else errors.push(...fieldErrors(path, result));
    }
    if (!site && errors.length > before) throw fieldValidationError(errors);
    return values;
  };
}

function fieldErrors(path: readonly string[], result: RuleResult): FieldError[] {
  return result.ok
    ? []
    : result.problems.map(({ message, value }) => ({ path: [...path], message, name: 'ValidationError', value }));
}
