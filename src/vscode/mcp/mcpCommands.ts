// The MCP commands: start, stop, restart, show log (from the view's inline actions with the server, or from the
// palette with a QuickPick), revoking remembered consent, and signing out of an OAuth server.
import * as vscode from 'vscode';
import { registerLoggedCommands } from '../common/loggedCommands';
import { consentFingerprint } from '../../mcp/serverCommand';
import type { McpServerStatus } from '../../mcp/types';
import type { Logger } from '../../editor/log/logger';
import type { McpService } from './mcpService';
import { serverRow } from '../../editor/mcp/serverView';
import type { McpNode } from './serverTree';

type Pick = 'start' | 'stop' | 'restart' | 'log';

const RUNNING = new Set(['ready', 'starting', 'restarting']);

export function registerMcpCommands(service: McpService, log: Logger): vscode.Disposable[] {
  const withServer = (pick: Pick, action: (name: string) => Promise<void> | void) => async (arg?: unknown) => {
    const name = serverNameOf(arg) ?? (await pickServer(service, pick));
    if (name) await action(name);
  };
  const commands: Record<string, (arg?: unknown) => Promise<void>> = {
    'localharness.mcp.start': withServer('start', (name) => service.start(name)),
    'localharness.mcp.stop': withServer('stop', (name) => service.stop(name)),
    'localharness.mcp.restart': withServer('restart', (name) => service.restart(name)),
    'localharness.mcp.showLog': withServer('log', (name) => service.showLog(name)),
    'localharness.mcp.revokeConsent': () => revokeConsent(service, log),
    'localharness.mcp.signOut': (arg?: unknown) => signOut(service, log, serverNameOf(arg)),
  };
  return registerLoggedCommands(commands, log);
}

function serverNameOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const node = arg as McpNode | undefined;
  return node && typeof node === 'object' && node.kind === 'server' ? node.name : undefined;
}

function fits(pick: Pick, status: McpServerStatus): boolean {
  if (pick === 'start') return !RUNNING.has(status.state);
  if (pick === 'stop') return RUNNING.has(status.state);
  return true;
}

async function pickServer(service: McpService, pick: Pick): Promise<string | undefined> {
  await service.loadConfig();
  const all = service.statuses();
  const candidates = all.filter((s) => fits(pick, s));
  if (candidates.length === 0) {
    const why = all.length === 0 ? 'No MCP servers are configured (setting localharness.mcpServers or .vscode/mcp.json).' : `No MCP server to ${pick === 'log' ? 'show' : pick}.`;
    void vscode.window.showInformationMessage(`Local Harness: ${why}`);
    return undefined;
  }
  const title = { start: 'Start MCP Server', stop: 'Stop MCP Server', restart: 'Restart MCP Server', log: 'Show MCP Server Log' }[pick];
  const chosen = await vscode.window.showQuickPick(
    candidates.map((s) => {
      const row = serverRow(s);
      return { label: s.name, description: row.description, detail: s.commandLine };
    }),
    { title: `Local Harness: ${title}`, placeHolder: 'Choose a server' },
  );
  return chosen?.label;
}

/** "Sign Out of MCP Server": the server stops and its tokens leave secret storage. */
async function signOut(service: McpService, log: Logger, named: string | undefined): Promise<void> {
  const signedIn = await service.signedIn();
  if (signedIn.length === 0) {
    void vscode.window.showInformationMessage('Local Harness: no MCP server is signed in.');
    return;
  }
  const name =
    named && signedIn.some((s) => s.name === named)
      ? named
      : (
          await vscode.window.showQuickPick(
            signedIn.map((s) => ({ label: s.name, detail: (s.transport as { url: string }).url })),
            { title: 'Local Harness: Sign Out of MCP Server', placeHolder: 'Servers you are signed in to; pick one to sign out' },
          )
        )?.label;
  if (!name) return;
  const removed = await service.signOut(name);
  log.info(`MCP server "${name}": signed out${removed ? ', tokens removed from secret storage' : ' (nothing was stored)'}`);
  void vscode.window.showInformationMessage(`Local Harness: signed out of MCP server "${name}". Its tokens were removed; starting it asks you to sign in again.`);
}

async function revokeConsent(service: McpService, log: Logger): Promise<void> {
  const records = service.consentStore.list();
  if (records.length === 0) {
    void vscode.window.showInformationMessage('Local Harness: no MCP server has consent in this workspace.');
    return;
  }
  const chosen = await vscode.window.showQuickPick(
    records.map((r) => ({ label: r.name, description: `allowed ${r.grantedAt.slice(0, 10)}`, detail: r.commandLine, record: r })),
    { title: 'Local Harness: Revoke MCP Server Consent', placeHolder: 'Servers that may start in this workspace; pick the ones to revoke', canPickMany: true },
  );
  if (!chosen?.length) return;
  const removed = await service.consentStore.revoke(chosen.map((c) => c.record.fingerprint));
  // A running server whose definition matches a revoked consent stops now; it asks again next time it starts.
  const revoked = new Set(removed.map((r) => r.fingerprint));
  const running = service.configured().filter((c) => revoked.has(consentFingerprint(c))).map((c) => c.name);
  await service.stopRevoked(running);
  log.info(`MCP consent revoked: ${removed.map((r) => r.name).join(', ')}`);
  void vscode.window.showInformationMessage(
    `Local Harness: consent revoked for ${removed.map((r) => `"${r.name}"`).join(', ')}. ${removed.length === 1 ? 'It asks' : 'They ask'} again before starting.`,
  );
}
