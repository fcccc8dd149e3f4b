// Types of windows.js for the TypeScript that imports it (its tests).
export interface StopRule {
  readonly meanMs: number;
  readonly meanSeconds: number;
  readonly errorRate: number;
  readonly errorSeconds: number;
}
export type Threshold = string | { threshold: string; abortOnFail: boolean; delayAbortEval: string };
export declare function windowTags(sinceMeasureMs: number, overTimeMs: number, stress: { failure: StopRule } | null): Record<string, string>;
export declare function overTimeThresholds(windows: number): Record<string, Threshold[]>;
export declare function stressThresholds(failure: StopRule, seconds: number, startSeconds: number): Record<string, Threshold[]>;
