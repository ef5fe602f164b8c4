// A chat session exactly as the editor's session factory builds it: its composition root (editorPorts.ts) feeding
// the one builder (buildSession.ts), from the parts a test made. Defaults only what the tests do not look at.
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentSession } from '../../src/core/session/agentSession';
import type { ChatMessage } from '../../src/core/messages';
import { editorSessionBuild, type ChatServices, type EditorTurn } from '../../src/editor/agent/editorPorts';
import { buildSession } from '../../src/builder/buildSession';

/** The root of a window without folders: it does not exist, so nothing is read from it. */
const NO_FOLDER = { name: 'no-folder', path: path.join(tmpdir(), `lh-test-no-folder-${process.pid}`) };

export function editorSession(
  chat: Omit<ChatServices, 'panel'> & Partial<Pick<ChatServices, 'panel'>>,
  turn: Omit<EditorTurn, 'noFolder'>,
  history: readonly ChatMessage[] = [],
): AgentSession {
  return buildSession(editorSessionBuild({ panel: { dispatch: () => undefined }, ...chat }, { noFolder: NO_FOLDER, ...turn }, { history }));
}
