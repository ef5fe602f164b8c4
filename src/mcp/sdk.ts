// The MCP SDK is loaded on first use, so a run without MCP servers never pays for it (the extension ships it as
// its own file, dist/lazy/mcp-sdk.js, built from sdkModules.ts).
import type { McpSdk } from './sdkTypes';

export type { McpSdk };

let loading: Promise<McpSdk> | undefined;
let loaded: McpSdk | undefined;
let loads = 0;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= (async () => {
    loads++;
    // require() in a function, not import(): the unit tests load TypeScript through tsx's require hook alone, which
    // has no import() of a .ts file; the bundles load the module (the extension: its own file) either way.
    loaded = (require('./sdkModules') as typeof import('./sdkModules')).mcpSdk;
    return loaded;
  })().catch((err: unknown) => {
    loading = undefined; // let a later start try again
    throw new Error(`cannot load the MCP SDK: ${(err as Error).message}`);
  });
  return loading;
}

/** The SDK if some server already loaded it (every catalog entry comes from a started server, so it is). */
export function loadedMcpSdk(): McpSdk | undefined {
  return loaded;
}

/** How many times the SDK was actually loaded in this process (0 when no server was ever started). */
export function mcpSdkLoadCount(): number {
  return loads;
}
