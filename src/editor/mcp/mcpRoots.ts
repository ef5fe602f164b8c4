// The roots announced to MCP servers: the workspace folders as `file://` URIs, none in an untrusted workspace
// (a server from the user's settings still runs there, but learns nothing about the folder). Pure: the folders
// and the trust come from the caller.
import type { McpRoot } from '../../mcp/clientFeatures';

export interface FolderLike {
  /** The folder's URI as a string (`vscode.Uri.toString()`). */
  uri: string;
  name: string;
}

export function rootsOf(folders: readonly FolderLike[], trusted: boolean): McpRoot[] {
  if (!trusted) return [];
  // Only local folders are roots: a server runs on this machine and reads paths, not remote URIs.
  return folders.filter((f) => f.uri.startsWith('file://')).map((f) => ({ uri: f.uri, name: f.name }));
}
