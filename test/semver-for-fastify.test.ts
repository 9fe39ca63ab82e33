import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/*
 * scripts/semver-for-fastify.cjs stands in for semver where Fastify checks a plugin's `fastify`
 * range in the server's bundle (scripts/bundle-stubs.mjs): it must answer as semver does, for the
 * ranges it decides itself and for those it hands to semver.
 */
/** The part of semver's API Fastify calls. */
interface Semver {
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
  gt(a: string, b: string): boolean;
  coerce(version: string): { version: string } | null;
}
const require = createRequire(import.meta.url);
const narrowed = require('../scripts/semver-for-fastify.cjs') as Semver;
const semver = require('semver') as Semver;

const VERSIONS = ['5.0.0', '5.6.1', '5.12.8', '4.29.1', '6.0.0', '50.0.0', '0.5.0', '5.0.0-rc.1', '05.1.0', 'x'];
const RANGES = ['5.x', '4.x', '6.x', '0.x', '50.x', '>=5.0.0', '^5.2.0', '5.x || 6.x', '5', '*', '5.1.x', '05.x'];

describe('semver as the bundle gives it to Fastify', () => {
  it('satisfies answers as semver for every version and range, prereleases included or not', () => {
    for (const version of VERSIONS)
      for (const range of RANGES)
        for (const includePrerelease of [false, true])
          expect(narrowed.satisfies(version, range, { includePrerelease }), `${version} in ${range}`).toBe(
            semver.satisfies(version, range, { includePrerelease }),
          );
  });

  it('gt and coerce are semver’s', () => {
    expect(narrowed.gt('5.1.0-rc.1', '5.0.0')).toBe(true);
    expect(narrowed.coerce('5.x')?.version).toBe('5.0.0');
  });
});
