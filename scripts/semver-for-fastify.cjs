// semver as Fastify uses it, in a server's bundle (scripts/bundle-stubs.mjs): when a plugin is
// registered, Fastify checks its `fastify` range with `satisfies`, and with `gt` and `coerce`
// while Fastify itself is a release candidate. A range of one major version (`5.x`), the kind every
// plugin Cairn registers declares, is answered here for a release version; anything else by the
// real semver, loaded then. Loading semver builds ~40 regular expressions at every start.
'use strict';

let real;
const load = () => (real ??= require('semver'));
const RELEASE = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
const ONE_MAJOR = /^(0|[1-9]\d*)\.x$/;

module.exports = {
  satisfies(version, range, options) {
    const release = typeof version === 'string' ? RELEASE.exec(version) : null;
    const major = typeof range === 'string' ? ONE_MAJOR.exec(range) : null;
    if (release && major) return release[1] === major[1];
    return load().satisfies(version, range, options);
  },
  gt: (a, b, options) => load().gt(a, b, options),
  coerce: (version, options) => load().coerce(version, options),
};
