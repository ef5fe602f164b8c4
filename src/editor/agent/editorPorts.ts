// The editor's composition root: the complete SessionBuild a chat session is built from by the one builder
// (src/builder/buildSession.ts; the CLI's root is src/cli/cliPorts.ts). It maps the editor's settings and the
// workspace's trust to builder settings and lends the session the chat's services and this turn's workspace and
// recording. No 'vscode' import and no heavy import: the integration tests build exactly what a chat turn builds.
import type { TurnHooksSettingsInput } from '../../core/resilience/turnHooksSettings';
import { WorkspaceRoots, type WorkspaceFolder } from '../../core/workspace/workspaceRoots';
import type { SessionBuild, SessionPorts, SessionRecording, SessionSettings } from '../../builder/buildSession';
import { allowedRisksFor, restrictionParts, type ToolAccess } from '../engine/toolAccess';
import type { HarnessSettings } from '../settings/harnessSettings';
import { userSkillsFolder } from '../settings/skillsFolder';
import { showCompression, type MarkSink } from '../history/liveCompression';
import type { TurnRecording } from '../history/sessionService';

/** What the chat lends every session it builds (they live as long as the chat, or the window). */
export interface ChatServices extends Omit<SessionPorts, 'provider' | 'model' | 'roots' | 'systemInfo'>, Pick<SessionBuild, 'knowledge'> {
  /** Per-model memories (the editor's global state): token calibration, and the setup check reports. */
  memories?: SessionBuild['calibration'];
  /** The chat panel: compressed messages are marked there. */
  panel: MarkSink;
}

/** What one turn decided: the settings and trust it runs with, the model server, the open folders, the recording. */
export interface EditorTurn extends Pick<SessionPorts, 'provider' | 'model' | 'systemInfo'>, Pick<SessionBuild, 'orchestrator'> {
  settings: HarnessSettings;
  access: ToolAccess;
  folders: readonly WorkspaceFolder[];
  /** The root of a window without folders (never read from). */
  noFolder: WorkspaceFolder;
  recording?: TurnRecording;
}

/** The conversation the session continues: its messages and where its context manager stands. */
export type Conversation = Pick<SessionBuild, 'history' | 'contextState'>;

/**
 * The user is in the loop in the editor: a plain answer ends the turn and they reply if it is not done.
 * (Headless runs keep reminding the model to call task_completion; here that would nag after every answer.)
 */
export const EDITOR_AGENT_SETTINGS: TurnHooksSettingsInput = { policy: { maxCompletionReminders: 0 } };

/** The user's `localharness.agent` setting over the editor's defaults (their policy keys win). */
export function editorAgentSettings(user: TurnHooksSettingsInput): TurnHooksSettingsInput {
  return { ...EDITOR_AGENT_SETTINGS, ...user, policy: { ...EDITOR_AGENT_SETTINGS.policy, ...user.policy } };
}

export function editorSessionBuild(chat: ChatServices, turn: EditorTurn, conversation: Conversation): SessionBuild {
  const { memories, knowledge, panel, ...lent } = chat;
  const recorder = turn.recording?.recorder;
  const recording: SessionRecording | undefined = recorder && {
    id: recorder.id,
    onMessage: (message) => recorder.onMessage(message),
    onMessageContext: (message) => recorder.onMessageContext(message),
    kv: recorder.kv,
    vectors: recorder.vectors,
  };
  const folders = turn.folders.length ? turn.folders : [turn.noFolder];
  return {
    ports: {
      ...lent,
      provider: turn.provider,
      model: turn.model,
      // A recorded session checkpoints every agent write first (the undo stack).
      fs: turn.recording ? turn.recording.wrapFileSystem(chat.fs) : chat.fs,
      roots: new WorkspaceRoots([...folders], chat.fs),
      systemInfo: turn.systemInfo,
    },
    settings: editorSettings(turn.settings, turn.access),
    ...conversation,
    ...(recording && { recording }),
    // Calibration goes with a recorded session (recording.kv) and with the window otherwise.
    ...(memories && { calibration: memories, setupChecks: memories }),
    ...(knowledge && { knowledge }),
    ...(turn.orchestrator && { orchestrator: turn.orchestrator }),
    onCompression: (report, session) => showCompression(report, session, panel, recorder),
    notice: (message) => chat.bus.emit({ type: 'notice', message }),
    status: (message) => chat.bus.emit({ type: 'status', message }),
  };
}

/** The editor's settings and the workspace's trust as the builder's settings. */
function editorSettings(settings: HarnessSettings, access: ToolAccess): SessionSettings {
  const allowedRisks = allowedRisksFor(access);
  return {
    maxRounds: settings.maxRounds,
    think: settings.think,
    thinkingBudget: settings.thinkingBudget,
    ...(settings.contextSize > 0 && { contextSize: settings.contextSize, configuredWindow: settings.contextSize }),
    agent: editorAgentSettings(settings.agent),
    context: settings.context,
    ...(settings.instructions && { instructions: settings.instructions }),
    fallbackModels: settings.fallbackModels,
    maxOfferedTools: settings.maxOfferedTools,
    ...(settings.embeddingModel && { embeddingModel: settings.embeddingModel }),
    ...(allowedRisks && { allowedRisks }),
    extraParts: restrictionParts(access),
    // Workspace skills are read like the workspace's rules files (also in Restricted Mode: text, not actions).
    skills: { userFolder: userSkillsFolder(settings) },
  };
}

export { userSkillsFolder };
