// Types of payloads.js for the TypeScript side (seed generator, conformance suite, bench runner).
export type DocumentKind = 'text' | 'list' | 'record' | 'table';
export type TextPayload = string;
export type ListPayload = string[];
export type RecordPayload = Record<string, string>;
export type TablePayload = Record<string, string>[];
export interface PayloadOf {
  text: TextPayload;
  list: ListPayload;
  record: RecordPayload;
  table: TablePayload;
}
export type DocumentPayload = PayloadOf[DocumentKind];

export declare const KINDS: readonly DocumentKind[];
export declare const SHAPES: {
  readonly text: { readonly length: number };
  readonly list: { readonly items: number; readonly length: number };
  readonly record: { readonly attributes: number; readonly length: number };
  readonly table: { readonly rows: number; readonly attributes: number; readonly length: number };
};
export declare const ALPHANUMERIC: string;
export declare const PRINTABLE_ASCII: string;
export declare function payload<K extends DocumentKind>(kind: K, seed: number, alphabet?: string): PayloadOf[K];
export declare function documentBody<K extends DocumentKind>(kind: K, seed: number, alphabet?: string): { kind: K; payload: PayloadOf[K] };
