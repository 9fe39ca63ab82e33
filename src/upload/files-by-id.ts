import { findManyDocuments, type ReadContext } from '../documents/read-documents.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';

/**
 * The files with these row ids as the upload API shows them (`fields`/`populate` of `query`
 * applied), in the order of `ids`; ids without a file are left out. One read, whatever the count.
 */
export async function filesById(
  read: ReadContext,
  fileType: ContentType,
  ids: readonly number[],
  query: Query,
): Promise<Document[]> {
  if (ids.length === 0) return [];
  const byId: Query = {
    ...query,
    filters: { kind: 'compare', field: 'id', op: 'in', value: [...ids] },
    sort: [],
    pagination: { mode: 'all', withCount: false },
  };
  const { documents } = await findManyDocuments(read, fileType, byId);
  const order = new Map(ids.map((id, index) => [id, index]));
  return documents.sort((a, b) => (order.get(Number(a.id)) ?? 0) - (order.get(Number(b.id)) ?? 0));
}
