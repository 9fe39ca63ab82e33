/**
 * Runs `task`s one after the other, in call order (a failed task does not stop the next): a
 * transaction's single connection must not be given a second statement while one runs (pg
 * deprecates it; order must be kept), and role writes apply one at a time.
 */
export function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  };
}
