// "Never for this file type": the types the indexing queue skips, remembered per workspace.
import type * as vscode from 'vscode';
import type { NeverTypes } from '../../indexing/indexQueue';

const KEY = 'localharness.index.neverTypes';

export class WorkspaceNeverTypes implements NeverTypes {
  constructor(private readonly state: vscode.Memento) {}

  has(type: string): boolean {
    return this.list().includes(type);
  }

  async add(type: string): Promise<void> {
    if (this.has(type)) return;
    await this.state.update(KEY, [...this.list(), type]);
  }

  list(): string[] {
    const value = this.state.get<unknown>(KEY);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  }
}
