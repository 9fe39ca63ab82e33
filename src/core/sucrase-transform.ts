import { transform } from 'sucrase';

/**
 * Sucrase's transform, in a module of its own so that the bundle carries it (compiled once, kept
 * in the bundle's code cache) and runs it only when a start has a file to compile (transpile.ts
 * imports it on demand).
 */
export const sucraseTransform: typeof transform = transform;
