// API keys per server: each key is stored for the origin (scheme, host, port) it was entered for and handed out
// only for that origin, so settings that point somewhere else never receive it. The single key of earlier
// versions is bound once to the origin of the user's own server. Pure (no 'vscode' import): SecretStorage is
// injected.

/** Where versions before per-origin keys kept the one key. */
export const LEGACY_API_KEY_NAME = 'localharness.openai.apiKey';
const PREFIX = 'localharness.openai.apiKey@';

export function apiKeyName(origin: string): string {
  return `${PREFIX}${origin}`;
}

export function isApiKeyName(name: string): boolean {
  return name === LEGACY_API_KEY_NAME || name.startsWith(PREFIX);
}

/** The subset of vscode.SecretStorage used here. */
export interface SecretPort {
  get(name: string): PromiseLike<string | undefined>;
  store(name: string, value: string): PromiseLike<void>;
  delete(name: string): PromiseLike<void>;
}

export interface ApiKeyVaultOptions {
  /** The origin of the user's own (global) OpenAI-compatible server, which an old single key belongs to. */
  legacyOrigin: () => string | undefined;
  /** Every key read or stored, so the log scrubber knows it. */
  onSecret?: (value: string) => void;
  onMigrated?: (origin: string) => void;
}

export class ApiKeyVault {
  private migration: Promise<void> | undefined;

  constructor(
    private readonly secrets: SecretPort,
    private readonly options: ApiKeyVaultOptions,
  ) {}

  /** The key stored for exactly this origin. */
  async get(origin: string): Promise<string | undefined> {
    await this.migrate();
    const value = (await this.secrets.get(apiKeyName(origin))) || undefined;
    if (value) this.options.onSecret?.(value);
    return value;
  }

  async set(origin: string, value: string): Promise<void> {
    await this.migrate();
    this.options.onSecret?.(value);
    await this.secrets.store(apiKeyName(origin), value);
  }

  async remove(origin: string): Promise<void> {
    await this.migrate();
    await this.secrets.delete(apiKeyName(origin));
  }

  /** Binds the old single key to the user's own server, once. Retried later when that address is malformed. */
  private migrate(): Promise<void> {
    this.migration ??= this.moveLegacyKey().catch((err: unknown) => {
      this.migration = undefined;
      throw err;
    });
    return this.migration;
  }

  private async moveLegacyKey(): Promise<void> {
    const legacy = (await this.secrets.get(LEGACY_API_KEY_NAME)) || undefined;
    if (!legacy) return;
    const origin = this.options.legacyOrigin();
    if (!origin) {
      // Nowhere safe to bind it: keep it unused (never sent) and try again on the next read.
      this.migration = undefined;
      return;
    }
    // A key already entered for that server is newer than the old one: keep it.
    if (!(await this.secrets.get(apiKeyName(origin)))) await this.secrets.store(apiKeyName(origin), legacy);
    await this.secrets.delete(LEGACY_API_KEY_NAME);
    this.options.onMigrated?.(origin);
  }
}
