// What a running server offers beyond tools (resources, templates, prompts), read leniently and re-read when the
// server says a list changed. A server whose resource listing fails still offers its tools: the failure is
// logged and the list stays empty.
import { Coalescing } from './coalescing';
import type { McpConnection } from './connection';
import { EMPTY_CATALOG, toPromptInfos, toResourceInfos, toTemplateInfos, type McpCatalog } from './resourceCatalog';

type CatalogPart = 'resources' | 'prompts';

export interface CatalogHost {
  name: string;
  /** The connection serving the server now (undefined while it is down). */
  current(): McpConnection | undefined;
  /** A start is under way: changes announced meanwhile are applied once it is ready. */
  starting(): boolean;
  log(line: string): void;
  /** The catalog changed (the server's status should be reported again). */
  changed(): void;
}

export class CatalogKeeper {
  private catalog: McpCatalog = EMPTY_CATALOG;
  private readonly refreshing = { resources: new Coalescing(), prompts: new Coalescing() };
  private readonly pending = new Set<CatalogPart>();

  constructor(private readonly host: CatalogHost) {}

  get value(): McpCatalog {
    return this.catalog;
  }

  set(catalog: McpCatalog): void {
    this.catalog = catalog;
  }

  /** Everything at once, for a server that just started. */
  async fetch(connection: McpConnection, signal?: AbortSignal): Promise<McpCatalog> {
    return { ...(await this.fetchResources(connection, signal)), prompts: await this.fetchPrompts(connection, signal) };
  }

  /** Lists that changed while the server was starting: re-read now that it is ready. */
  applyPending(connection: McpConnection): void {
    for (const part of this.pending) this.refresh(connection, part);
  }

  clearPending(): void {
    this.pending.clear();
  }

  /** Re-list after a list_changed notification; notifications during a pass collapse into one more pass. */
  refresh(connection: McpConnection | undefined, part: CatalogPart): void {
    const host = this.host;
    if (!connection) return;
    if (host.current() !== connection) {
      if (host.starting()) this.pending.add(part);
      return;
    }
    this.refreshing[part].run(async () => {
      const update = part === 'resources' ? await this.fetchResources(connection) : { prompts: await this.fetchPrompts(connection) };
      if (host.current() !== connection) return 'stop';
      this.catalog = { ...this.catalog, ...update };
      host.log(
        part === 'resources'
          ? `re-listed resources: ${this.catalog.resources.length} resources, ${this.catalog.resourceTemplates.length} templates`
          : `re-listed prompts: ${this.catalog.prompts.length} available`,
      );
      host.changed();
    });
  }

  private async fetchResources(connection: McpConnection, signal?: AbortSignal): Promise<Pick<McpCatalog, 'resources' | 'resourceTemplates'>> {
    const { name } = this.host;
    const skip = (why: string) => this.host.log(`skipped: ${why}`);
    const [resources, templates] = await Promise.all([
      connection.listResources(signal).catch((err: unknown) => this.listFailed('resources', err)),
      connection.listResourceTemplates(signal).catch((err: unknown) => this.listFailed('resource templates', err)),
    ]);
    return {
      resources: toResourceInfos(name, resources, skip),
      resourceTemplates: toTemplateInfos(name, templates, (t) => connection.templateVariables(t), skip),
    };
  }

  private async fetchPrompts(connection: McpConnection, signal?: AbortSignal): Promise<McpCatalog['prompts']> {
    const raw = await connection.listPrompts(signal).catch((err: unknown) => this.listFailed('prompts', err));
    return toPromptInfos(this.host.name, raw, (why) => this.host.log(`skipped: ${why}`));
  }

  private listFailed(what: string, err: unknown): unknown[] {
    this.host.log(`listing ${what} failed: ${(err as Error).message}`);
    return [];
  }
}
