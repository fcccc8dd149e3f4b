// Types of random.js for the TypeScript side (generator, conformance module, tests).
export declare const ALPHANUMERIC: string;
export declare const SYLLABLES: readonly string[];
export declare function lastName(n: number): string;
export declare const NURAND_A: { readonly lastName: 255; readonly customerId: 1023; readonly itemId: 8191 };
export declare function validRunC(cLoad: number, cRun: number): boolean;
export declare class TpccRandom {
  constructor(seed: number);
  uint32(): number;
  int(lo: number, hi: number): number;
  nurand(A: number, x: number, y: number, C: number): number;
  chance(percent: number): boolean;
  aString(min: number, max: number): string;
  nString(min: number, max: number): string;
  letters(length: number): string;
  data(min: number, max: number): string;
  zip(): string;
  permutation(n: number): number[];
}
