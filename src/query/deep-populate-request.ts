import type { DeepPopulateConfig } from '../config/deep-populate-config.js';
import { ValidationError } from '../core/errors.js';
import type { Model } from '../schema/types.js';
import { attributeOf } from './populate-attributes.js';

/** The query key strapi-v5-plugin-populate-deep reads. */
export const P_LEVEL = 'pLevel';

/**
 * The depth `pLevel` asks for (strapi-v5-plugin-populate-deep):
 *
 *   ?pLevel / ?pLevel=     → config.defaultDepth
 *   ?pLevel=3              → 3
 *   ?pLevel=50             → config.maxDepth (lowered quietly, as a page size is to `maxLimit`)
 *   ?pLevel=0 / x / [1, 2] → 400 naming pLevel
 */
export function pLevelDepth(value: unknown, config: DeepPopulateConfig): number {
  return depthOf(value, P_LEVEL, config);
}

/**
 * The depth `populate` asks for in strapi-plugin-populate-deep's form, or null when it is an
 * ordinary populate:
 *
 *   'deep' / ['deep']                     → config.defaultDepth
 *   'deep,3' / ['deep', '3']              → 3 (capped at config.maxDepth)
 *   'deep' on a model with a `deep` attribute → null (the attribute is meant)
 *   'deep,3,4' / 'deep,x'                 → 400
 */
export function populateDeepDepth(model: Model, populate: unknown, config: DeepPopulateConfig): number | null {
  const parts =
    typeof populate === 'string'
      ? populate.split(',')
      : Array.isArray(populate) && populate.every((item) => typeof item === 'string')
        ? populate.flatMap((item: string) => item.split(','))
        : null;
  if (parts === null || parts[0]?.trim() !== 'deep' || attributeOf(model, 'deep') !== null) return null;
  if (parts.length > 2)
    throw new ValidationError('Invalid populate: "deep" takes one depth, as populate=deep,5', {
      source: 'query',
      param: 'populate',
    });
  return depthOf(parts[1]?.trim() ?? '', 'populate', config);
}

function depthOf(value: unknown, param: string, config: DeepPopulateConfig): number {
  if (value === '' || value === null || value === true) return config.defaultDepth;
  const depth =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,6}$/.test(value)
        ? Number(value)
        : Number.NaN;
  if (!Number.isInteger(depth) || depth < 1)
    throw new ValidationError(
      `Invalid ${param === P_LEVEL ? 'pLevel' : 'populate=deep'} depth ${JSON.stringify(value)}: expected a positive integer (depths above ${config.maxDepth} read as ${config.maxDepth})`,
      { source: 'query', param },
    );
  return Math.min(depth, config.maxDepth);
}
