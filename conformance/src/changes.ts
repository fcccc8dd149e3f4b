// Row changes that scenarios make directly in the database (and in the oracle),
// as data: the YAML says { update|insert|delete: <table>, key, set|row }.

export type Row = Readonly<Record<string, unknown>>;

/** A resolved change: the full row after it (or its removal), keyed by primary key. */
export type RowChange =
  | { readonly kind: 'put'; readonly table: string; readonly key: number; readonly row: Row }
  | { readonly kind: 'delete'; readonly table: string; readonly key: number };

export type ChangeSpec =
  | { readonly update: string; readonly key: number; readonly set: Row }
  | { readonly insert: string; readonly row: Row }
  | { readonly delete: string; readonly key: number };

/** What every API's store offers: a digest of all its data (equal digests mean no data changed). */
export interface DataStore {
  digest(): Promise<string>;
}

/** Direct access to the rows behind an API, for scenarios and for the data-intact check. */
export interface RowStore extends DataStore {
  /** The row with that primary key, or null. */
  read(table: string, key: number): Promise<Row | null>;
  /** Writes the row (insert or replace) or deletes it. */
  write(change: RowChange): Promise<void>;
  primaryKey(table: string): string;
  /** Starts counting the statements other clients (the implementation) run against the API's tables. */
  resetStatementCount(): Promise<void>;
  /** How many such statements ran since the last reset. */
  statementCount(): Promise<number>;
}

/**
 * Applies a change spec to the store; returns the change made and the change
 * that undoes it.
 */
export async function applyChange(store: RowStore, spec: ChangeSpec): Promise<{ done: RowChange; undo: RowChange }> {
  const table = 'update' in spec ? spec.update : 'insert' in spec ? spec.insert : spec.delete;
  const key = 'insert' in spec ? Number(spec.row[store.primaryKey(table)]) : spec.key;
  const before = await store.read(table, key);
  let done: RowChange;
  if ('delete' in spec) {
    if (before === null) throw new Error(`scenario: ${table} ${key} does not exist`);
    done = { kind: 'delete', table, key };
  } else if ('update' in spec) {
    if (before === null) throw new Error(`scenario: ${table} ${key} does not exist`);
    done = { kind: 'put', table, key, row: { ...before, ...spec.set } };
  } else {
    if (before !== null) throw new Error(`scenario: ${table} ${key} exists already`);
    done = { kind: 'put', table, key, row: spec.row };
  }
  await store.write(done);
  const undo: RowChange = before === null ? { kind: 'delete', table, key } : { kind: 'put', table, key, row: before };
  return { done, undo };
}
