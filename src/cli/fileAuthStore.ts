// The CLI's OAuth records for MCP servers: one JSON file only the user can read and write (0600, in a 0700
// folder), like the credential files of gh, aws or gcloud. Each record is keyed by the MCP server's URL and its
// tokens are only ever sent to that server. Written whole to a temporary file and renamed, so a crash never
// leaves half a file; read again before each write, so two CLIs signing in to different servers both keep theirs.
import { chmodSync, lstatSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { McpAuthRecord, McpAuthStore } from '../mcp/auth/types';
import { privateDirectory, writeFileAtomicSync } from '../persistence/atomicFile';

interface FileShape {
  version: 1;
  servers: Record<string, McpAuthRecord>;
}

/** `$XDG_CONFIG_HOME/localharness/mcp-auth.json` (`~/.config/…`; `%APPDATA%\localharness\…` on Windows). */
export function defaultAuthFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = process.platform === 'win32' ? (env.APPDATA ?? path.join(homedir(), 'AppData', 'Roaming')) : env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'localharness', 'mcp-auth.json');
}

export class FileAuthStore implements McpAuthStore {
  constructor(
    readonly file: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  async get(serverUrl: string): Promise<McpAuthRecord | undefined> {
    return this.read().servers[serverUrl];
  }

  async set(serverUrl: string, record: McpAuthRecord): Promise<void> {
    const data = this.read();
    data.servers[serverUrl] = record;
    this.write(data);
  }

  async delete(serverUrl: string): Promise<boolean> {
    const data = this.read();
    if (!(serverUrl in data.servers)) return false;
    delete data.servers[serverUrl];
    this.write(data);
    return true;
  }

  private read(): FileShape {
    let stat;
    try {
      stat = lstatSync(this.file);
    } catch {
      return { version: 1, servers: {} };
    }
    if (!stat.isFile()) throw new Error(`${this.file} is not a regular file; move it away to sign in to MCP servers again`);
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
      throw new Error(`${this.file} belongs to another user; not reading MCP sign-ins from it`);
    }
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      // Someone loosened it; tighten it again and say so, since others may have read it.
      chmodSync(this.file, 0o600);
      this.warn(`${this.file} was readable by others (mode ${(stat.mode & 0o777).toString(8)}); it is 600 again. Sign out and in again if you think a token was copied.`);
    }
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<FileShape>;
      if (data && typeof data === 'object' && data.servers && typeof data.servers === 'object') return { version: 1, servers: data.servers };
    } catch {
      // fall through: a damaged file is replaced by the next sign-in
    }
    this.warn(`${this.file} is not a valid MCP sign-in file; it is replaced at the next sign-in`);
    return { version: 1, servers: {} };
  }

  // Synchronous from read to rename, so two sign-ins in one process cannot interleave and lose one.
  private write(data: FileShape): void {
    const dir = path.dirname(this.file);
    if (!privateDirectory(dir)) throw new Error(`${dir} is not a folder only you can write; not keeping MCP sign-ins in it`);
    writeFileAtomicSync(this.file, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
  }
}
