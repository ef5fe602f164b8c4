// FileSystemPort for the editor. Reads see unsaved editor buffers; writes to open documents go through a
// WorkspaceEdit (so Undo works) and are then saved; everything else goes through vscode.workspace.fs.
// For local (file:) workspaces, reads and look-ups (lstat, realpath, readFile, readDirectory) use node:fs: the
// symlink checks in WorkspaceRoots stay exact, and a read is not a round trip through the editor's window
// (20–50 ms each on a busy machine, against ~1 ms). Writes still go through the editor, which tracks them.
import * as vscode from 'vscode';
import { promises as nodeFs } from 'node:fs';
import * as path from 'node:path';
import type { FileKind, FileStat, FileSystemPort } from '../../core/ports';
import { decodeText, encodeText, encodingLabel, type TextEncodingName } from '../../core/tools/encoding/textEncoding';

/** The `files.encoding` setting for a file, as one of the encodings the tools write exactly (others: undefined). */
export function filesEncodingSetting(uri: vscode.Uri): TextEncodingName | undefined {
  const value = vscode.workspace.getConfiguration('files', uri).get<string>('encoding');
  return value === 'windows1252' || value === 'iso88591' ? 'windows1252' : undefined;
}

export class VsCodeFileSystem implements FileSystemPort {
  private readonly encoder = new TextEncoder();

  /**
   * `folders` maps paths to URIs for non-file workspaces (remote, virtual); defaults to the open folders.
   * `preferredEncoding`: files.encoding, which decides how files without a BOM read (the text tools then edit
   * them as the editor shows them, through readFile/writeFile).
   */
  constructor(
    private readonly folders: () => readonly vscode.WorkspaceFolder[] = () => vscode.workspace.workspaceFolders ?? [],
    private readonly preferredEncoding: (uri: vscode.Uri) => TextEncodingName | undefined = filesEncodingSetting,
  ) {}

  async readFile(filePath: string): Promise<string> {
    const doc = this.openDocument(filePath);
    if (doc && doc.isDirty) return doc.getText();
    try {
      const bytes = this.isLocal(filePath) ? await nodeFs.readFile(filePath) : await vscode.workspace.fs.readFile(this.uri(filePath));
      // In the file's own encoding, as the tools decode its bytes (UTF-8, UTF-16 with a BOM, else Windows-1252).
      return decodeText(bytes, this.preferredEncoding(this.uri(filePath)));
    } catch (err) {
      throw toFsError(err, filePath);
    }
  }

  async writeFile(filePath: string, content: string): Promise<void> {
    const doc = this.openDocument(filePath);
    if (doc) {
      const edit = new vscode.WorkspaceEdit();
      const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
      edit.replace(doc.uri, whole, content);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused the edit to ${filePath}; is the file read-only?`);
      // Saved so commands (tests, builds) see the change; the edit stays on the undo stack.
      if (!(await doc.save())) throw new Error(`Could not save ${filePath} after editing it.`);
      return;
    }
    const uri = this.uri(filePath);
    let bytes: Uint8Array = this.encoder.encode(content);
    const preferred = this.preferredEncoding(uri);
    if (preferred) {
      // files.encoding says how this file is read, so it is written the same way, exactly or not at all.
      const encoded = encodeText(content, preferred);
      if (!encoded.ok) throw new Error(`${path.basename(filePath)} is written as ${encodingLabel(preferred)} (files.encoding), which cannot hold "${encoded.char}"; nothing was written.`);
      bytes = encoded.bytes;
    }
    try {
      await vscode.workspace.fs.writeFile(uri, bytes);
    } catch (err) {
      throw toFsError(err, filePath);
    }
  }

  /** The bytes on disk (an open document's unsaved edits are not bytes yet: readFile sees those). */
  async readBytes(filePath: string): Promise<Uint8Array> {
    try {
      return this.isLocal(filePath) ? await nodeFs.readFile(filePath) : await vscode.workspace.fs.readFile(this.uri(filePath));
    } catch (err) {
      throw toFsError(err, filePath);
    }
  }

  /**
   * Exact bytes. An open document that shows exactly what the tools decode from disk is edited through a
   * WorkspaceEdit instead (its undo stack keeps the change; saving it in its own encoding writes these bytes);
   * any other goes through the editor's file API, and an open, unmodified document reloads them from disk.
   */
  async writeBytes(filePath: string, data: Uint8Array): Promise<void> {
    const doc = this.openDocument(filePath);
    if (doc && !doc.isDirty) {
      const onDisk = await this.readBytes(filePath);
      if (doc.getText() === decodeText(onDisk)) return this.writeFile(filePath, decodeText(data));
    }
    try {
      await vscode.workspace.fs.writeFile(this.uri(filePath), data);
    } catch (err) {
      throw toFsError(err, filePath);
    }
  }

  async lstat(filePath: string): Promise<FileStat | undefined> {
    if (this.isLocal(filePath)) {
      try {
        const s = await nodeFs.lstat(filePath);
        const kind: FileKind = s.isSymbolicLink() ? 'symlink' : s.isDirectory() ? 'directory' : s.isFile() ? 'file' : 'other';
        return { kind, size: s.size, mtimeMs: s.mtimeMs };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    }
    try {
      const s = await vscode.workspace.fs.stat(this.uri(filePath));
      return { kind: kindOf(s.type), size: s.size, mtimeMs: s.mtime };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw toFsError(err, filePath);
    }
  }

  async realpath(filePath: string): Promise<string> {
    if (this.isLocal(filePath)) return nodeFs.realpath(filePath);
    // Virtual file systems expose no link targets; the path must exist.
    await vscode.workspace.fs.stat(this.uri(filePath)).then(undefined, (err: unknown) => {
      throw toFsError(err, filePath);
    });
    return filePath;
  }

  async readDirectory(dirPath: string): Promise<Array<{ name: string; kind: FileKind }>> {
    if (this.isLocal(dirPath)) {
      const entries = await nodeFs.readdir(dirPath, { withFileTypes: true });
      return entries.map((e) => ({
        name: e.name,
        kind: e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other',
      }));
    }
    try {
      const entries = await vscode.workspace.fs.readDirectory(this.uri(dirPath));
      return entries.map(([name, type]) => ({ name, kind: kindOf(type) }));
    } catch (err) {
      throw toFsError(err, dirPath);
    }
  }

  async rename(from: string, to: string): Promise<void> {
    const doc = this.openDocument(from);
    if (doc) {
      // Through a WorkspaceEdit so open editors follow the file (and Undo can move it back).
      const edit = new vscode.WorkspaceEdit();
      edit.renameFile(doc.uri, this.uri(to), { overwrite: false });
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused to move ${from} to ${to}.`);
      return;
    }
    try {
      await vscode.workspace.fs.rename(this.uri(from), this.uri(to), { overwrite: false });
    } catch (err) {
      throw toFsError(err, from);
    }
  }

  async mkdir(dirPath: string): Promise<void> {
    try {
      await vscode.workspace.fs.createDirectory(this.uri(dirPath));
    } catch (err) {
      throw toFsError(err, dirPath);
    }
  }

  async remove(filePath: string): Promise<void> {
    const doc = this.openDocument(filePath);
    if (doc) {
      // Through a WorkspaceEdit so an open editor closes with the file instead of showing it as deleted.
      const edit = new vscode.WorkspaceEdit();
      edit.deleteFile(doc.uri, { ignoreIfNotExists: true });
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused to delete ${filePath}.`);
      return;
    }
    try {
      await vscode.workspace.fs.delete(this.uri(filePath), { recursive: false, useTrash: false });
    } catch (err) {
      throw toFsError(err, filePath);
    }
  }

  /** The URI for an absolute path: in the scheme of the workspace folder that contains it, else file:. */
  uri(filePath: string): vscode.Uri {
    const folder = this.folderFor(filePath);
    if (!folder || folder.uri.scheme === 'file') return vscode.Uri.file(filePath);
    return folder.uri.with({ path: filePath.split(path.sep).join('/') });
  }

  private folderFor(filePath: string): vscode.WorkspaceFolder | undefined {
    return this.folders().find((f) => {
      const root = folderPath(f.uri);
      const rel = path.relative(root, filePath);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
  }

  private isLocal(filePath: string): boolean {
    const folder = this.folderFor(filePath);
    return !folder || folder.uri.scheme === 'file';
  }

  private openDocument(filePath: string): vscode.TextDocument | undefined {
    const target = this.uri(filePath).toString();
    return vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === target);
  }
}

/** The path WorkspaceRoots works with for a folder: fsPath for local folders, the URI path elsewhere. */
export function folderPath(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.path;
}

function kindOf(type: vscode.FileType): FileKind {
  if (type & vscode.FileType.SymbolicLink) return 'symlink';
  if (type & vscode.FileType.Directory) return 'directory';
  if (type & vscode.FileType.File) return 'file';
  return 'other';
}

function isNotFound(err: unknown): boolean {
  if (err instanceof vscode.FileSystemError) return err.code === 'FileNotFound' || err.code === 'EntryNotFound';
  const code = (err as { code?: unknown })?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Normalises editor errors into node-style errors with a code, which the tools already understand. */
function toFsError(err: unknown, filePath: string): Error {
  if (err instanceof vscode.FileSystemError) {
    const code =
      err.code === 'FileNotFound' || err.code === 'EntryNotFound'
        ? 'ENOENT'
        : err.code === 'FileExists'
          ? 'EEXIST'
          : err.code === 'FileIsADirectory' || err.code === 'EntryIsADirectory'
            ? 'EISDIR'
            : err.code === 'FileNotADirectory' || err.code === 'EntryNotADirectory'
              ? 'ENOTDIR'
              : err.code === 'NoPermissions'
                ? 'EACCES'
                : 'EIO';
    const out = new Error(`${code}: ${err.message || err.code} (${filePath})`) as Error & { code: string; path: string };
    out.code = code;
    out.path = filePath;
    return out;
  }
  return err instanceof Error ? err : new Error(String(err));
}
