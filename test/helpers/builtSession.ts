// Sessions in tests and benches come from the one builder both hosts use (src/builder/buildSession.ts), from the
// ports the test made and the settings it needs; notices go on the bus, as the hosts show them.
import type { AgentSession } from '../../src/core/session/agentSession';
import { buildSession, type SessionBuild, type SessionPorts, type SessionSettings } from '../../src/builder/buildSession';

/** Retries without waiting (the backoff is tested on its own). */
export const NO_BACKOFF: SessionSettings['agent'] = { retry: { backoffBaseMs: 0 } };

export function builtSession(ports: SessionPorts, settings: SessionSettings = {}, build: Omit<Partial<SessionBuild>, 'ports' | 'settings'> = {}): AgentSession {
  return buildSession({ ports, settings, notice: (message) => ports.bus.emit({ type: 'notice', message }), ...build });
}
