// The host side of `@` mentions: candidates for what the user types (files and folders .gitignore leaves in,
// problems, the last terminal command, workspace symbols) and the chip each chosen one becomes.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { Attachment } from '../../shared/protocol';
import type { MentionCandidate } from '../../shared/mentions';
import { folderListing, mentionCandidates, problemsSummary, problemsText, visiblePaths, type Problem, type SymbolHit } from '../../editor/mentions/mentionCandidates';
import { folderPath } from '../ports/vsCodeFileSystem';
import { dataUrl, imageFromBytes } from '../../core/images/imagePart';
import type { ImageUpload } from '../../shared/imageUpload';
import { TerminalOutputWatcher, terminalText } from './terminalOutput';

/** The file list is listed again at most this often (typing fires a query per key). */
const FILES_FRESH_MS = 5_000;
const MAX_FILES = 20_000;

export class MentionProvider implements vscode.Disposable {
  private files: { at: number; list: string[] } | undefined;
  private readonly terminal = new TerminalOutputWatcher();

  async candidates(query: string): Promise<MentionCandidate[]> {
    const files = await this.fileList();
    const problems = this.problems();
    const last = this.terminal.lastCommand();
    return mentionCandidates({
      query,
      files,
      symbols: query.length >= 2 ? await this.symbols(query) : [],
      problems: problemsSummary(problems),
      ...(last && { terminal: `$ ${last.commandLine}` }),
    });
  }

  /** The chip for a chosen candidate; throws with a sentence when there is nothing to attach. */
  async attachment(candidate: MentionCandidate): Promise<Attachment> {
    switch (candidate.kind) {
      case 'file':
        return { id: randomUUID(), path: candidate.ref, file: this.absolute(candidate.ref) };
      case 'symbol': {
        const m = /^(.*):(\d+)-(\d+)$/.exec(candidate.ref);
        if (!m) throw new Error(`not a symbol location: ${candidate.ref}`);
        return { id: randomUUID(), path: m[1]!, file: this.absolute(m[1]!), startLine: Number(m[2]), endLine: Number(m[3]) };
      }
      case 'folder':
        return { id: randomUUID(), kind: 'mention', mention: 'folder', label: candidate.ref, text: folderListing(await this.fileList(), candidate.ref) };
      case 'problems':
        return { id: randomUUID(), kind: 'mention', mention: 'problems', label: 'problems', text: problemsText(this.problems()) };
      case 'terminal': {
        const last = this.terminal.lastCommand();
        if (!last) throw new Error('No terminal command has run with shell integration in this window yet, so there is no output to attach.');
        return { id: randomUUID(), kind: 'mention', mention: 'terminal', label: `terminal: ${last.commandLine.slice(0, 80)}`, text: terminalText(last).slice(-20_000) };
      }
    }
  }

  /** `@shot.png`: an image file goes to the message box as an image (the panel shrinks it), not as text. */
  async imageFor(candidate: MentionCandidate): Promise<ImageUpload | undefined> {
    if (candidate.kind !== 'file' || !/\.(png|jpe?g|webp|gif)$/i.test(candidate.ref)) return undefined;
    const name = candidate.ref.split('/').pop() ?? candidate.ref;
    const made = imageFromBytes(await vscode.workspace.fs.readFile(this.uriOf(candidate.ref)), name);
    if (!made.ok) throw new Error(made.message);
    return { name, dataUrl: dataUrl(made.image) };
  }

  dispose(): void {
    this.terminal.dispose();
  }

  private absolute(rel: string): string {
    return folderPath(this.uriOf(rel));
  }

  private uriOf(rel: string): vscode.Uri {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('No folder is open.');
    return vscode.Uri.joinPath(folder.uri, rel);
  }

  private async fileList(): Promise<string[]> {
    if (this.files && Date.now() - this.files.at < FILES_FRESH_MS) return this.files.list;
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return [];
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), '**/{node_modules,.git}/**', MAX_FILES);
    const gitignore = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, '.gitignore')).then((b) => new TextDecoder().decode(b), () => undefined);
    // A folder the .gitignore names takes everything under it along (the `ignore` package matches parents).
    const list = visiblePaths(uris.map((u) => vscode.workspace.asRelativePath(u, false)), gitignore);
    this.files = { at: Date.now(), list };
    return list;
  }

  private problems(): Problem[] {
    const severity = ['error', 'warning', 'info', 'hint'] as const;
    return vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) =>
      diagnostics.map((d) => ({
        path: vscode.workspace.asRelativePath(uri, false),
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: severity[d.severity] ?? 'info',
        message: d.message,
        ...(d.source && { source: d.source }),
        ...(d.code !== undefined && { code: String(typeof d.code === 'object' ? d.code.value : d.code) }),
      })),
    );
  }

  private async symbols(query: string): Promise<SymbolHit[]> {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query).then(
      (s) => s ?? [],
      () => [],
    );
    return found
      .filter((s) => vscode.workspace.getWorkspaceFolder(s.location.uri))
      .slice(0, 8)
      .map((s) => ({
        name: s.name,
        kind: vscode.SymbolKind[s.kind]?.toLowerCase() ?? 'symbol',
        path: vscode.workspace.asRelativePath(s.location.uri, false),
        startLine: s.location.range.start.line + 1,
        endLine: s.location.range.end.line + 1,
      }));
  }
}
