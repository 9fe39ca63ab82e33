/**
 * Names for server-side prepared statements (PostgreSQL): a named statement is parsed once per
 * connection and then only bound and executed, but the server keeps it — and its cached plans,
 * tens of kilobytes each — for the connection's life. So a text is named only the second time it
 * runs (one-off DDL and introspection never are), and at most `limit` texts get names; the rest
 * are parsed on every run, as unnamed statements always are.
 */
export function statementNamer(limit: number): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  const seenOnce = new Set<string>();
  return (sql) => {
    const name = names.get(sql);
    if (name !== undefined || names.size >= limit) return name;
    if (!seenOnce.has(sql)) {
      if (seenOnce.size < limit * 10) seenOnce.add(sql);
      return undefined;
    }
    seenOnce.delete(sql);
    const given = `cairn_${names.size + 1}`;
    names.set(sql, given);
    return given;
  };
}
