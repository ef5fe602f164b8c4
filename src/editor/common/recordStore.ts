// A list of records kept in an editor Memento under one key (workspace state): read defensively (storage written
// by another version may hold anything), one record per key, replaced or removed by key. Server consent, MCP
// consent and approval rules are each such a list. No 'vscode' import: the Memento is injected.

/** The subset of a vscode Memento the stores need (context.workspaceState). */
export interface MementoLike {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export class RecordStore<T> {
  constructor(
    private readonly memento: MementoLike,
    private readonly storageKey: string,
    private readonly isRecord: (value: unknown) => value is T,
    private readonly keyOf: (record: T) => string,
  ) {}

  list(): T[] {
    const raw = this.memento.get(this.storageKey);
    return Array.isArray(raw) ? raw.filter(this.isRecord) : [];
  }

  find(key: string): T | undefined {
    return this.list().find((r) => this.keyOf(r) === key);
  }

  /** Adds the record, replacing one with the same key. */
  async put(record: T): Promise<void> {
    const key = this.keyOf(record);
    await this.memento.update(this.storageKey, [...this.list().filter((r) => this.keyOf(r) !== key), record]);
  }

  /** Removes the records with these keys; returns them. */
  async remove(keys: Iterable<string>): Promise<T[]> {
    const gone = new Set(keys);
    const all = this.list();
    const removed = all.filter((r) => gone.has(this.keyOf(r)));
    if (removed.length) await this.memento.update(this.storageKey, all.filter((r) => !gone.has(this.keyOf(r))));
    return removed;
  }
}
