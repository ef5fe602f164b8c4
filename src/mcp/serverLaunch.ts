// Opening one server up to "ready": the connection (spawn or dial, handshake, sign-in), its first tools/list and
// catalog. Each event the connection reports names the connection it came from, so a replaced one cannot speak
// for the server. A launch that another start or a stop overtook closes what it opened and returns nothing.
import type { McpAuthSession } from './auth/authSession';
import type { CatalogKeeper } from './catalogKeeper';
import type { McpClientFeatures } from './clientFeatures';
import { McpConnection } from './connection';
import type { McpCatalog } from './resourceCatalog';
import type { SamplingGate } from './samplingGate';
import type { AuthEnvOptions } from './startGate';
import type { McpServerConfig } from './types';

export interface LaunchEnv extends Pick<AuthEnvOptions, 'fetch' | 'clientVersion'> {
  defaultStartTimeoutMs: number;
  features?: McpClientFeatures;
  samplingGate?: SamplingGate;
}

/** What a connection reports, with the connection it came from (undefined: it is still opening). */
export interface LaunchEvents {
  log(line: string): void;
  toolsChanged(from: McpConnection | undefined): void;
  crashed(from: McpConnection | undefined, reason: string): void;
  resourcesChanged(from: McpConnection | undefined): void;
  promptsChanged(from: McpConnection | undefined): void;
  resourceUpdated(from: McpConnection | undefined, uri: string): void;
}

export interface Launched {
  connection: McpConnection;
  /** tools/list, raw. */
  tools: unknown[];
  catalog: McpCatalog;
}

export async function launchServer(
  config: McpServerConfig,
  env: LaunchEnv,
  o: { signal: AbortSignal; auth: McpAuthSession | undefined; catalog: CatalogKeeper; events: LaunchEvents; current: () => boolean },
): Promise<Launched | undefined> {
  const { events } = o;
  let opened: McpConnection | undefined;
  try {
    opened = await McpConnection.open({
      config,
      startTimeoutMs: config.startTimeoutMs ?? env.defaultStartTimeoutMs,
      clientVersion: env.clientVersion,
      signal: o.signal,
      ...(env.fetch && { fetch: env.fetch }),
      ...(env.features && { features: env.features }),
      ...(env.samplingGate && { samplingGate: env.samplingGate }),
      ...(o.auth && { auth: o.auth }),
      hooks: {
        log: (line) => events.log(line),
        onToolsChanged: () => events.toolsChanged(opened),
        onUnexpectedClose: (reason) => events.crashed(opened, reason),
        onResourcesChanged: () => events.resourcesChanged(opened),
        onPromptsChanged: () => events.promptsChanged(opened),
        onResourceUpdated: (uri) => events.resourceUpdated(opened, uri),
      },
    });
    if (!o.current()) return void (await opened.close());
    const connection = opened;
    const tools = await connection.listTools(o.signal).catch((err: unknown) => {
      throw new Error(`MCP server "${config.name}" started but listing its tools failed: ${(err as Error).message}.${connection.stderrTail()}`);
    });
    if (!o.current()) return void (await connection.close());
    const catalog = await o.catalog.fetch(connection, o.signal);
    if (!o.current()) return void (await connection.close());
    return { connection, tools, catalog };
  } catch (err) {
    await opened?.close();
    throw err;
  }
}
