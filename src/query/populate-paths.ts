import { isOneSidedInverse } from '../schema/one-sided-inverses.js';
import { ValidationError } from '../core/errors.js';
import type { Model, Schema } from '../schema/types.js';
import { attributeOf, invalidPopulateKey, targetOf } from './populate-attributes.js';
import { isRecord } from '../core/is-record.js';

/**
 * How many levels one `populate` may nest (`author.articles.tags` is 3). Every level is one more
 * statement per node, and a dotted path is the only form qs does not already bound: 900 levels of
 * `author.articles…` exhausted the stack. The bracket form stops near 10 levels (qs depth 20).
 */
export const MAX_POPULATE_DEPTH = 20;

/** The 400 for a populate nested deeper than MAX_POPULATE_DEPTH. */
export function populateTooDeep(depth: number): ValidationError {
  return new ValidationError(`Invalid populate: it nests ${depth} levels; at most ${MAX_POPULATE_DEPTH} are allowed`, {
    source: 'query',
    param: 'populate',
  });
}

/**
 * Dotted populate strings → the object form, checked segment by segment:
 *
 *   ['author.articles', 'seo'] → { author: { populate: { articles: true } }, seo: true }
 *
 * Errors report the path counted from the string itself, wherever it sits, as Strapi does
 * (`populate[author][populate]=articles.nope` → `Invalid key nope at articles.nope`). A path
 * through a dynamic zone (`blocks.author`) reaches every component having the next segment — at
 * the top level only: inside a nested populate (`nestedAt`, the parent's path) Strapi refuses it
 * as `Invalid key populate at author.populate.articles.populate.blocks`.
 */
export function pathsToTree(
  schema: Schema,
  model: Model,
  paths: readonly string[],
  nestedAt: string | null,
): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const path of paths.map((p) => p.trim()).filter((p) => p !== '')) {
    if (path === '*') throw invalidPopulateKey('*', '*');
    const segments = path.split('.');
    if (segments.length > MAX_POPULATE_DEPTH) throw populateTooDeep(segments.length);
    addPath(schema, [model], segments, tree, null, nestedAt);
  }
  return tree;
}

function addPath(
  schema: Schema,
  models: readonly Model[],
  segments: readonly string[],
  tree: Record<string, unknown>,
  parent: string | null,
  nestedAt: string | null,
): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  const here = parent ? `${parent}.${head}` : head;
  const owners = models.filter((m) => attributeOf(m, head) !== null || isOneSidedInverse(m.attributes.get(head)));
  if (owners.length === 0) throw invalidPopulateKey(head, here);
  const existing = tree[head];
  const node: Record<string, unknown> = isRecord(existing) ? existing : {};
  tree[head] = rest.length === 0 && !isRecord(existing) ? true : node;
  if (rest.length === 0) return;
  const nextModels: Model[] = [];
  for (const owner of owners) {
    const attribute = attributeOf(owner, head);
    if (attribute === null) continue;
    if (attribute !== 'localizations' && attribute.type === 'media') throw invalidPopulateKey(head, here);
    if (attribute !== 'localizations' && attribute.type === 'dynamiczone') {
      if (nestedAt !== null)
        throw invalidPopulateKey('populate', `${nestedAt}.populate.${here.split('.').join('.populate.')}`);
      for (const uid of attribute.components) {
        const component = schema.components.get(uid);
        if (component) nextModels.push(component);
      }
    } else {
      const target = targetOf(schema, owner, attribute);
      if (target) nextModels.push(target);
    }
  }
  const children = isRecord(node.populate) ? node.populate : {};
  node.populate = children;
  tree[head] = node;
  addPath(schema, nextModels, rest, children, here, nestedAt);
}
