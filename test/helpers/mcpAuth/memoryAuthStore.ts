// An McpAuthStore in memory (the editor keeps records in SecretStorage, the CLI in a file): what was stored is
// readable by the test.
import type { McpAuthRecord, McpAuthStore } from '../../../src/mcp/auth/types';

export class MemoryAuthStore implements McpAuthStore {
  readonly records = new Map<string, McpAuthRecord>();
  async get(serverUrl: string) {
    const record = this.records.get(serverUrl);
    return record && structuredClone(record);
  }
  async set(serverUrl: string, record: McpAuthRecord) {
    this.records.set(serverUrl, structuredClone(record));
  }
  async delete(serverUrl: string) {
    return this.records.delete(serverUrl);
  }
}
