import { runImport } from '../transfer/run-import.js';
import { TransferError } from '../transfer/transfer-error.js';
import { createTransferProgress, summaryTable } from '../transfer/transfer-progress.js';
import { parseGroups, transferScope } from '../transfer/transfer-scope.js';
import { announceCommandChanges, everythingChanged } from '../cluster/announce-command.js';
import type { CliArgs } from './cli-args.js';
import { warnLine, withProjectDatabase } from './with-database.js';

type Output = (line: string) => void;

/**
 * `import --file F [--key K] [--force] [--only …] [--exclude …]`: loads an archive `strapi export`
 * (or `cairn export`) wrote into the project's database, replacing its content as `strapi import`
 * does, in one transaction; refused before anything is written when the archive is bad (a value
 * that does not fit its attribute included), or when its schemas differ from the project's or the
 * database holds content and `--force` is missing (with it, a schema difference is reported and
 * the import goes on, as `strapi import --force`). In production, webhooks pointing at this
 * machine are left out, as the admin panel refuses them.
 * Progress bars on stderr (on a terminal), then Strapi's summary table.
 */
export async function importCommand(args: CliArgs, out: Output): Promise<void> {
  if (args.file === undefined) throw new TransferError('import needs the archive: --file F');
  const scope = transferScope(parseGroups(args.only, '--only'), parseGroups(args.exclude, '--exclude'));
  await withProjectDatabase(args.dir, async (project, db) => {
    const progress = createTransferProgress(process.stderr);
    out('Starting import...');
    try {
      await runImport(
        project,
        db,
        {
          file: args.file as string,
          ...(args.key !== undefined ? { key: args.key } : {}),
          force: args.force,
          scope,
          now: new Date(),
          production: project.env.NODE_ENV === 'production',
        },
        progress,
      );
      progress.stop();
      await announceCommandChanges(project.config, everythingChanged(project.schema), warnLine);
      out(summaryTable(progress.totals));
      out('Import process has been completed successfully!');
    } finally {
      progress.stop();
    }
  });
}
