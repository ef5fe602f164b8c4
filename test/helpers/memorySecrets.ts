// A SecretPort double backed by a Map (VS Code's SecretStorage, as the API key vault uses it).
import type { SecretPort } from '../../src/editor/apiKeyVault';

export class MemorySecrets implements SecretPort {
  readonly values = new Map<string, string>();
  async get(name: string) {
    return this.values.get(name);
  }
  async store(name: string, value: string) {
    this.values.set(name, value);
  }
  async delete(name: string) {
    this.values.delete(name);
  }
}
