import { fieldValidationError, type FieldError } from '../core/errors.js';
import { isScalar, type Model, type ScalarAttribute } from '../schema/types.js';
import { blocksErrors } from './blocks-rule.js';
import { compileScalarRule, typeError, yupTypeName, type ScalarRule } from './scalar-rules.js';

/** How a write is validated: creation requires required attributes; drafts skip required checks. */
export interface ValidationMode {
  readonly creating: boolean;
  readonly draft: boolean;
}

/**
 * Validates the scalar attributes present in `data` and returns them cast (`"42"` → 42,
 * `"true"` → true, biginteger → exact string). Throws Strapi's ValidationError listing every
 * problem (`details.errors[]` with `path`, `message`, `name`, `value`).
 */
export type DataValidator = (data: Readonly<Record<string, unknown>>, mode: ValidationMode) => Record<string, unknown>;

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

  return (data, mode) => {
    const values: Record<string, unknown> = {};
    const errors: FieldError[] = [];
    for (const { attribute, rule, typeName } of compiled) {
      const name = attribute.name;
      const value = data[name];
      const enforceRequired = attribute.required && !mode.draft;
      if (value === undefined) {
        if (enforceRequired && mode.creating) errors.push({ path: [name], message: `${name} must be defined.`, name: 'ValidationError' });
        continue;
      }
      if (value === null) {
        if (enforceRequired) {
          errors.push(
            typeName === null
              ? { path: [name], message: `${name} must be defined.`, name: 'ValidationError', value: null }
              : toFieldError(name, typeError(name, typeName, null, null)),
          );
        } else {
          values[name] = null;
        }
        continue;
      }
      if (attribute.type === 'blocks') {
        const problems = blocksErrors(name, value);
        if (problems.length === 0) values[name] = value;
        else errors.push(...problems);
        continue;
      }
      const result = rule(value, name);
      if (result.ok) values[name] = result.value;
      else errors.push(toFieldError(name, result));
    }
    if (errors.length > 0) throw fieldValidationError(errors);
    return values;
  };
}

function toFieldError(name: string, result: { readonly message?: string; readonly value: unknown }): FieldError {
  return { path: [name], message: result.message ?? '', name: 'ValidationError', value: result.value };
}
