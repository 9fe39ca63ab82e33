import { describe, expect, it } from 'vitest';
import { createEnvHelper } from '../config/env-helper.js';
import { settlePluginConfig } from './plugin-config.js';

const env = createEnvHelper({ TODO_MODE: 'strict' });

describe('settlePluginConfig: a plugin config as Strapi 5 settles it', () => {
  it("completes the project's config with the defaults, deeply, the project's values winning", () => {
    const defaults = { greeting: 'Hello', limits: { maxOpen: 5, pageSize: 10 }, tags: ['a', 'b', 'c'], off: null };
    expect(
      settlePluginConfig('todo', { default: defaults }, { limits: { maxOpen: 2 }, tags: ['x'], extra: true }, env),
    ).toEqual({
      greeting: 'Hello',
      limits: { maxOpen: 2, pageSize: 10 },
      tags: ['x', 'b', 'c'],
      off: null,
      extra: true,
    });
    // lodash defaultsDeep: an undefined value takes the default, an empty array is completed by index
    expect(
      settlePluginConfig('todo', { default: { list: [5], mode: 'a' } }, { list: [], mode: undefined }, env),
    ).toEqual({
      list: [5],
      mode: 'a',
    });
    // the defaults are copied, never shared with the plugin's own object
    const settled = settlePluginConfig('todo', { default: defaults }, {}, env);
    (settled.limits as { maxOpen: number }).maxOpen = 9;
    expect(defaults.limits.maxOpen).toBe(5);
  });

  it('calls a function default with { env }, and no config at all gives {}', () => {
    expect(
      settlePluginConfig(
        'todo',
        { default: ({ env: e }: { env: typeof env }) => ({ mode: e('TODO_MODE', 'standard') }) },
        {},
        env,
      ),
    ).toEqual({
      mode: 'strict',
    });
    expect(settlePluginConfig('todo', undefined, {}, env)).toEqual({});
  });

  it("stops on the validator's throw with Strapi's message", () => {
    const validator = (config: { greeting?: unknown }) => {
      if (typeof config.greeting !== 'string') throw new Error('greeting must be a string');
    };
    expect(() => settlePluginConfig('todo', { default: {}, validator }, { greeting: 4 }, env)).toThrow(
      'config/plugins: Error regarding todo config: greeting must be a string',
    );
    expect(settlePluginConfig('todo', { default: {}, validator }, { greeting: 'hi' }, env)).toEqual({ greeting: 'hi' });
  });
});
