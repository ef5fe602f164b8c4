// Sessions in tests and benches come from the one builder both hosts use (src/builder/buildSession.ts), from the
// ports the test made and the settings it needs; notices go on the bus, as the hosts show them.
import type { AgentSession } from '../../src/core/session/agentSession';
import { buildSession, type SessionBuild, type SessionPorts, type SessionSettings } from '../../src/builder/buildSession';
import { ApprovalGate } from '../../src/core/approval/gate';
import { ContextTracker } from '../../src/core/workingContext/tracker';
import { WorkspaceRoots } from '../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../src/node/nodeProcessRunner';

/** Retries without waiting (the backoff is tested on its own). */
export const NO_BACKOFF: SessionSettings['agent'] = { retry: { backoffBaseMs: 0 } };

export function builtSession(ports: SessionPorts, settings: SessionSettings = {}, build: Omit<Partial<SessionBuild>, 'ports' | 'settings'> = {}): AgentSession {
  return buildSession({ ports, settings, notice: (message) => ports.bus.emit({ type: 'notice', message }), ...build });
}

/**
 * The ports of a session over one real folder on disk, as the CLI builds them: the node file system and process
 * runner, one workspace root, a fresh tracker, and a gate that runs the given risk levels without asking.
 */
export function workspacePorts(
  root: string,
  parts: Pick<SessionPorts, 'provider' | 'model' | 'registry' | 'bus'> & { autoApprove: Array<'read' | 'write' | 'execute'> },
): SessionPorts {
  const fs = new NodeFileSystem();
  return {
    provider: parts.provider,
    model: parts.model,
    registry: parts.registry,
    gate: new ApprovalGate({ policy: { autoApprove: parts.autoApprove, rules: [] } }),
    tracker: new ContextTracker(),
    roots: new WorkspaceRoots([{ name: 'ws', path: root }], fs),
    fs,
    runner: new NodeProcessRunner(),
    bus: parts.bus,
    systemInfo: { os: 'Linux', shell: '/bin/sh', workspaceFolders: [root] },
  };
}
