import { TransferError } from '../transfer/transfer-error.js';
import { createTransferProgress, summaryTable } from '../transfer/transfer-progress.js';
import { parseGroups, transferScope } from '../transfer/transfer-scope.js';
import { runExport } from '../transfer/run-export.js';
import type { CliArgs } from './cli-args.js';
import { withProjectDatabase } from './with-database.js';

type Output = (line: string) => void;

/**
 * `export [--file F] [--no-encrypt | --key K] [--no-compress] [--only …] [--exclude …]`: writes the
 * project's data as a Strapi 5 archive (`strapi import` loads it), `F.tar.gz.enc` by default
 * (`export_<date>` when no name is given). As `strapi export`, it encrypts unless told not to, so
 * it needs `--key` or `--no-encrypt`. Progress bars on stderr (on a terminal), then the summary
 * table and the archive's path.
 */
export async function exportCommand(args: CliArgs, out: Output, version: string): Promise<void> {
  if (args.noEncrypt && args.key !== undefined) throw new TransferError('give either --key or --no-encrypt, not both');
  if (!args.noEncrypt && (args.key === undefined || args.key === '')) {
    throw new TransferError('the archive is encrypted unless --no-encrypt is given: pass its key with --key K');
  }
  const scope = transferScope(parseGroups(args.only, '--only'), parseGroups(args.exclude, '--exclude'));
  await withProjectDatabase(args.dir, async (project, db) => {
    const progress = createTransferProgress(process.stderr);
    out('Starting export...');
    try {
      const path = await runExport(
        project,
        db,
        {
          ...(args.file !== undefined ? { file: args.file } : {}),
          compress: !args.noCompress,
          ...(args.noEncrypt ? {} : { key: args.key }),
          scope,
          now: new Date(),
          cairnVersion: version,
        },
        progress,
      );
      progress.stop();
      out(summaryTable(progress.totals));
      out(`Export archive is in ${path}`);
      out('Export process has been completed successfully!');
    } finally {
      progress.stop();
    }
  });
}
