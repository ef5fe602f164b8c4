// OAuth records of MCP servers in VS Code's secret storage (the OS keychain), one entry per server URL, never in
// settings. Every token read is handed to the log scrubber first. Pure (SecretStorage is injected).
import type { McpAuthRecord, McpAuthStore } from '../../mcp/auth/types';
import type { SecretPort } from '../apiKeyVault';

const PREFIX = 'localharness.mcp.oauth@';

export function mcpAuthKey(serverUrl: string): string {
  return `${PREFIX}${serverUrl}`;
}

export class SecretAuthStore implements McpAuthStore {
  constructor(
    private readonly secrets: SecretPort,
    private readonly onSecret: (value: string) => void = () => undefined,
  ) {}

  async get(serverUrl: string): Promise<McpAuthRecord | undefined> {
    const raw = await this.secrets.get(mcpAuthKey(serverUrl));
    if (!raw) return undefined;
    let record: McpAuthRecord;
    try {
      record = JSON.parse(raw) as McpAuthRecord;
    } catch {
      return undefined; // damaged: the next sign-in replaces it
    }
    if (record.tokens?.access_token) this.onSecret(record.tokens.access_token);
    if (record.tokens?.refresh_token) this.onSecret(record.tokens.refresh_token);
    return record;
  }

  async set(serverUrl: string, record: McpAuthRecord): Promise<void> {
    if (record.tokens?.access_token) this.onSecret(record.tokens.access_token);
    if (record.tokens?.refresh_token) this.onSecret(record.tokens.refresh_token);
    await this.secrets.store(mcpAuthKey(serverUrl), JSON.stringify(record));
  }

  async delete(serverUrl: string): Promise<boolean> {
    const had = (await this.secrets.get(mcpAuthKey(serverUrl))) !== undefined;
    await this.secrets.delete(mcpAuthKey(serverUrl));
    return had;
  }
}
