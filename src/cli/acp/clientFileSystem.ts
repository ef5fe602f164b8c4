// A FileSystemPort whose text reads and writes go through the ACP client (`fs/read_text_file`,
// `fs/write_text_file`): the agent sees the editor's unsaved buffers and its edits land in the editor's undo.
// Only what the client can carry exactly goes there: UTF-8 text without a BOM. Other encodings, binary files and
// everything else (stat, directories, moves) stay on the local file system, byte for byte.
import type { FileKind, FileStat, FileSystemPort } from '../../core/ports';

export interface ClientFiles {
  canRead: boolean;
  canWrite: boolean;
  read(path: string): Promise<string>;
  write(path: string, content: string): Promise<void>;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** UTF-8 without a BOM (or no bytes at all): what a text-file request can carry without changing a byte. */
function plainUtf8(bytes: Uint8Array): string | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return undefined;
  if (bytes.includes(0)) return undefined;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export class ClientFileSystem implements FileSystemPort {
  constructor(
    private readonly local: FileSystemPort,
    private readonly client: ClientFiles,
  ) {}

  async readFile(file: string): Promise<string> {
    const bytes = await this.local.readBytes(file).catch(() => undefined);
    if (this.client.canRead && (bytes === undefined || plainUtf8(bytes) !== undefined)) return this.client.read(file);
    return this.local.readFile(file);
  }

  async writeFile(file: string, content: string): Promise<void> {
    if (this.client.canWrite) return this.client.write(file, content);
    return this.local.writeFile(file, content);
  }

  async readBytes(file: string): Promise<Uint8Array> {
    const bytes = await this.local.readBytes(file);
    // An unsaved buffer of a UTF-8 file is what the user sees: the agent edits that, not the older disk copy.
    if (this.client.canRead && plainUtf8(bytes) !== undefined) return new TextEncoder().encode(await this.client.read(file));
    return bytes;
  }

  async writeBytes(file: string, data: Uint8Array): Promise<void> {
    const text = this.client.canWrite ? plainUtf8(data) : undefined;
    if (text !== undefined) {
      const existing = await this.local.readBytes(file).catch(() => undefined);
      // A file kept in another encoding is written locally so every untouched byte survives.
      if (existing === undefined || existing.length === 0 || plainUtf8(existing) !== undefined) return this.client.write(file, text);
    }
    return this.local.writeBytes(file, data);
  }

  lstat(file: string): Promise<FileStat | undefined> {
    return this.local.lstat(file);
  }

  realpath(file: string): Promise<string> {
    return this.local.realpath(file);
  }

  readDirectory(dir: string): Promise<Array<{ name: string; kind: FileKind }>> {
    return this.local.readDirectory(dir);
  }

  rename(from: string, to: string): Promise<void> {
    return this.local.rename(from, to);
  }

  mkdir(dir: string): Promise<void> {
    return this.local.mkdir(dir);
  }

  async remove(file: string): Promise<void> {
    if (!this.local.remove) throw new Error('removing files is not supported here');
    return this.local.remove(file);
  }
}
