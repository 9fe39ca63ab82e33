import type { RawContentType } from '../schema/raw-types.js';
import type { PluginExtension } from './read-model-files.js';

/**
 * The plugins' content types (Cairn's built-in ones and the project's plugins') with the project's
 * extensions laid over them as Strapi lays them: the extension's top-level keys replace the
 * plugin's (`{ ...schema, ...extension }`), so its `attributes` are the type's whole attribute
 * list, and error messages name the extension's file.
 * An extension of a type no plugin defines (a plugin that is not installed) is left out, with a
 * warning naming it.
 *
 *   users-permissions' user + extension { attributes: { …, bio: { type: 'text' } } }
 *     → plugin::users-permissions.user with the extension's attributes, file src/extensions/…/schema.json
 */
export function applyPluginExtensions(
  builtins: readonly RawContentType[],
  extensions: readonly PluginExtension[],
): { contentTypes: RawContentType[]; warnings: string[] } {
  const byUid = new Map(extensions.map((extension) => [extension.uid, extension]));
  const contentTypes = builtins.map((type) => {
    const extension = byUid.get(type.uid);
    if (!extension) return type;
    return { ...type, file: extension.file, definition: { ...type.definition, ...extension.definition } };
  });
  const known = new Set(builtins.map((type) => type.uid));
  const warnings = extensions
    .filter((extension) => !known.has(extension.uid))
    .map(
      (extension) =>
        `${extension.file} extends ${extension.uid}, a content type no plugin of the project defines (is the plugin installed and enabled?); the file is ignored`,
    );
  return { contentTypes, warnings };
}
