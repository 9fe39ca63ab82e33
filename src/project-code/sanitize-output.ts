import { getModel, type Model, type Schema } from '../schema/types.js';

/**
 * Strapi's `sanitizeOutput` for the content API, on documents project code read with the trusted
 * Document Service: at any depth, private attributes and passwords are dropped, and so are
 * relations whose target content type the caller may not `find` (media and components are kept,
 * their own relations checked inside them), as the core routes' answers never show them.
 *
 *   { title, secretNote (private), author: {…} } for a caller without author.find → { title }
 */
export function sanitizeOutput(
  schema: Schema,
  model: Model,
  data: unknown,
  mayFind: (uid: string) => boolean,
): unknown {
  if (Array.isArray(data)) return data.map((entry) => sanitizeOutput(schema, model, entry, mayFind));
  if (data === null || typeof data !== 'object') return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    const attribute = model.attributes.get(key);
    if (!attribute) {
      if (key === 'localizations' && Array.isArray(value)) {
        if (mayFind(model.uid)) out[key] = sanitizeOutput(schema, model, value, mayFind);
        continue;
      }
      out[key] = value;
      continue;
    }
    if (attribute.private || attribute.type === 'password') continue;
    switch (attribute.type) {
      case 'relation': {
        const target = attribute.target ? getModel(schema, attribute.target) : undefined;
        if (!target || (!attribute.system && !mayFind(target.uid))) continue;
        out[key] = sanitizeOutput(schema, target, value, mayFind);
        break;
      }
      case 'media': {
        const file = getModel(schema, 'plugin::upload.file');
        out[key] = file ? sanitizeOutput(schema, file, value, mayFind) : value;
        break;
      }
      case 'component': {
        const component = schema.components.get(attribute.component);
        out[key] = component ? sanitizeOutput(schema, component, value, mayFind) : value;
        break;
      }
      case 'dynamiczone':
        out[key] = Array.isArray(value)
          ? value.map((item: Record<string, unknown>) => {
              const component = schema.components.get(String(item?.__component));
              return component ? sanitizeOutput(schema, component, item, mayFind) : item;
            })
          : value;
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}
