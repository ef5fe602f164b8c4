// The VS Code side of McpHostPort: the `localharness.mcpServers` setting, the workspace folders and their MCP files
// (through vscode.workspace.fs, so remote workspaces work), workspace trust, the consent policy and the features
// lent to the servers.
import * as vscode from 'vscode';
import type { McpClientFeatures } from '../../mcp/clientFeatures';
import { errorMessage } from '../../editor/log/logger';
import { WORKSPACE_MCP_FILES, type WorkspaceFileText } from '../../editor/mcp/configSources';
import type { ConsentPolicy } from '../../editor/mcp/consent';
import type { McpHostPort } from '../../editor/mcp/mcpHost';
import { defaultToolTimeoutMs } from './editorFeatures';

export function editorMcpPort(consent: ConsentPolicy, features: () => McpClientFeatures | undefined): McpHostPort {
  return {
    mcpServersSetting: () => vscode.workspace.getConfiguration('localharness').inspect('mcpServers'),
    folders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    readWorkspaceFiles,
    toolTimeoutMs: defaultToolTimeoutMs,
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    consent: consent.port,
    askAgain: (server) => consent.askAgain(server),
    features,
  };
}

/** The workspace files that exist; one that cannot be read is reported and the others still load. */
async function readWorkspaceFiles(): Promise<{ files: WorkspaceFileText[]; errors: string[] }> {
  const files: WorkspaceFileText[] = [];
  const errors: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    for (const rel of WORKSPACE_MCP_FILES) {
      const uri = vscode.Uri.joinPath(folder.uri, rel);
      try {
        const bytes = await vscode.workspace.fs.readFile(uri);
        files.push({ folder: folder.uri.fsPath, path: uri.fsPath, text: new TextDecoder().decode(bytes) });
      } catch (err) {
        const missing = (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') || /ENOENT|EntryNotFound|FileNotFound/.test(errorMessage(err));
        if (!missing) errors.push(`cannot read ${uri.fsPath}: ${errorMessage(err)}`);
      }
    }
  }
  return { files, errors };
}
