/**
 * A transfer that cannot go on, for a reason the user can act on (a bad archive, a wrong key, a
 * schema mismatch, a non-empty database without `--force`). The command prints the message alone
 * and exits 1; nothing has been written, or what was written has been rolled back.
 */
export class TransferError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransferError';
  }
}
