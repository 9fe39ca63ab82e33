/**
 * A one-column table as Strapi's `*:list` commands print it (cli-table3's box: a `Name` heading,
 * a rule between every two rows), without colours.
 */
export function nameTable(names: readonly string[]): string {
  const width = Math.max('Name'.length, ...names.map((name) => name.length)) + 2;
  const rule = (left: string, right: string) => `${left}${'─'.repeat(width)}${right}`;
  const row = (text: string) => `│ ${text.padEnd(width - 1)}│`;
  const rows = ['Name', ...names].map(row);
  return [rule('┌', '┐'), rows.join(`\n${rule('├', '┤')}\n`), rule('└', '┘')].join('\n');
}
