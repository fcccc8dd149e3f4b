// Types of prng.js for the TypeScript side (the baseline client).
export declare function mulberry32(seed: number): () => number;
