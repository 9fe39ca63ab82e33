import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { nodeStartFlags } from './compact-heap.js';
import { growYoungGenerationWhenBusy, holdYoungGeneration } from './young-generation.js';

// Node given its own young-generation flags holds nothing, and calls afterStart a second after listening.
const ownFlags = nodeStartFlags().some((flag) => /semi[-_]space/.test(flag));

it.skipIf(ownFlags)('calls afterStart once, as soon as the server is busy (not a second later)', async () => {
  holdYoungGeneration();
  const calls: number[] = [];
  const listening = performance.now();
  growYoungGenerationWhenBusy(() => calls.push(performance.now() - listening));
  // ~64 MB of short-lived objects: far more than the 16 young-generation collections that make it busy.
  let kept = 0;
  for (let round = 0; round < 64; round++) {
    const garbage = Array.from({ length: 16_000 }, (_, index) => ({ index, text: `item ${index}` }));
    kept += garbage.length;
    await sleep(0);
  }
  expect(kept).toBe(64 * 16_000);
  for (let waited = 0; calls.length === 0 && waited < 900; waited += 10) await sleep(10);
  expect(calls).toHaveLength(1);
  expect(calls[0]).toBeLessThan(1000);
  // The settle moment (a second after listening) finds the server busy and calls nothing more.
  await sleep(1200);
  expect(calls).toHaveLength(1);
});
