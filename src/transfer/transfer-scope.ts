import { TransferError } from './transfer-error.js';

/** The data groups of `--only` / `--exclude`, as Strapi names them. */
export type TransferGroup = 'content' | 'files' | 'config';

const GROUPS: readonly TransferGroup[] = ['content', 'files', 'config'];

/**
 * What a transfer moves: `content` (entities and links: every document, the media library's
 * rows, users and roles), `files` (the uploaded files under `assets/`), `config` (the core store
 * and the webhooks). The schemas always travel.
 */
export interface TransferScope {
  readonly content: boolean;
  readonly files: boolean;
  readonly config: boolean;
}

/** `content,files` → ['content', 'files']; anything else is a TransferError naming the choices. */
export function parseGroups(text: string | undefined, option: string): TransferGroup[] {
  if (text === undefined) return [];
  const groups = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const unknown = groups.filter((group) => !GROUPS.includes(group as TransferGroup));
  if (unknown.length > 0 || groups.length === 0) {
    throw new TransferError(`${option} takes a comma-separated list of ${GROUPS.join(', ')} (got "${text}")`);
  }
  return groups as TransferGroup[];
}

/**
 * The scope of `--only` and `--exclude`, as Strapi decides it: everything unless `--only` names
 * groups, minus what `--exclude` names; a group in both is refused.
 */
export function transferScope(only: readonly TransferGroup[], exclude: readonly TransferGroup[]): TransferScope {
  const both = only.filter((group) => exclude.includes(group));
  if (both.length > 0) {
    throw new TransferError(`data types may not be used in both --exclude and --only: ${both.join(',')}`);
  }
  const included = (group: TransferGroup) => (only.length === 0 || only.includes(group)) && !exclude.includes(group);
  return { content: included('content'), files: included('files'), config: included('config') };
}

/** Types Strapi never transfers: the admin's own (users, roles, tokens) and content releases. */
const IGNORED_TYPES: ReadonlySet<string> = new Set([
  'plugin::content-releases.release',
  'plugin::content-releases.release-action',
]);

/** Whether rows of `uid` travel in an archive (everything but `admin::` types and content releases). */
export function isTransferredType(uid: string): boolean {
  return !uid.startsWith('admin::') && !IGNORED_TYPES.has(uid);
}
