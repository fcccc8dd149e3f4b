export * from './bootstrap.ts';
export * from './descriptive.ts';
export * from './multiplicity.ts';
export * from './paired.ts';
export * from './precision.ts';
export * from './process-pairs.ts';
export * from './rank-test.ts';
export * from './verdict.ts';
export { BOOTSTRAP_SEED } from './random.ts';
