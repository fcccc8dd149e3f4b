export * from './bootstrap.ts';
export * from './descriptive.ts';
export { BOOTSTRAP_SEED } from './random.ts';
