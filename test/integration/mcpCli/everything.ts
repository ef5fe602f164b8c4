// The real @modelcontextprotocol/server-everything for CLI tests: as a stdio server in a config file, or
// started over Streamable HTTP on a free port.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { nodeServer, packageBin, tempWorkspace, writeMcpConfig } from '../../helpers/mcp/mcpCliHelpers';

export const EVERYTHING_BIN = packageBin('@modelcontextprotocol/server-everything');

/** A workspace and a config file whose one stdio server is `everything`. */
export function everythingStdio(prefix: string): { root: string; ws: string; config: string } {
  const { root, ws } = tempWorkspace(prefix);
  return { root, ws, config: writeMcpConfig(root, { everything: nodeServer(EVERYTHING_BIN) }) };
}

/** Writes a config file with HTTP servers (VS Code format) next to the workspace and returns its path. */
export function writeHttpConfig(root: string, servers: Record<string, { url: string }>): string {
  const file = path.join(root, 'mcp-http.json');
  const entries = Object.fromEntries(Object.entries(servers).map(([name, entry]) => [name, { type: 'http', url: entry.url }]));
  writeFileSync(file, JSON.stringify({ servers: entries }, null, 2));
  return file;
}

export interface EverythingHttp {
  /** The MCP endpoint, http://127.0.0.1:PORT/mcp. */
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts server-everything's Streamable HTTP transport; resolves once it listens. */
export async function startEverythingHttp(): Promise<EverythingHttp> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything (HTTP) did not start within 15 s:\n${log}`)), 15_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      if (log.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything (HTTP) exited with ${code}:\n${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
