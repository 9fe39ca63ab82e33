import { describe, expect, it } from 'vitest';
import { createEventBus, type CairnEvent } from './event-bus.js';

const event = (name: CairnEvent['event']): CairnEvent => ({ event: name, createdAt: '2026-01-01T00:00:00.000Z' });

describe('event bus', () => {
  it('delivers to listeners of every event or of the named ones', () => {
    const bus = createEventBus(() => undefined);
    const all: string[] = [];
    const publishes: string[] = [];
    const offPublishes = bus.on((e) => void publishes.push(e.event), ['entry.publish']);
    bus.emit(event('entry.create'));
    bus.emit(event('entry.publish'));
    expect(publishes).toEqual(['entry.publish']);
    bus.on((e) => void all.push(e.event));
    bus.emit(event('media.delete'));
    expect(all).toEqual(['media.delete']);
    offPublishes();
    bus.emit(event('entry.publish'));
    expect(publishes).toEqual(['entry.publish']);
  });

  it('reports a failing listener and still calls the others', async () => {
    const errors: unknown[] = [];
    const bus = createEventBus((error) => errors.push(error));
    const seen: string[] = [];
    bus.on(() => {
      throw new Error('sync failure');
    });
    bus.on(async () => {
      throw new Error('async failure');
    });
    bus.on((e) => void seen.push(e.event));
    bus.emit(event('entry.update'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['entry.update']);
    expect(errors.map((e) => (e as Error).message).sort()).toEqual(['async failure', 'sync failure']);
  });
});
