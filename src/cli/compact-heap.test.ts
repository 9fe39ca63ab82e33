import { setTimeout as sleep } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { compactHeap } from './compact-heap.js';

it('runs a full collection and leaves gc() as later contexts had it', async () => {
  const exposedBefore = runInNewContext('typeof gc') as string;
  // A WeakRef's target outlives the job that made it: the collection runs in a later one.
  const unreachable = new WeakRef(Array.from({ length: 10_000 }, (_, index) => ({ index })));
  await sleep(1);
  compactHeap();
  expect(unreachable.deref()).toBeUndefined();
  expect(runInNewContext('typeof gc')).toBe(exposedBefore);
});
