// Wiring for the workspace index in the editor: the service (created before the chat, whose sessions retrieve
// through it) and, once the chat exists, the Knowledge view, the commands, the code actions, the
// indexing queue with its status bar item, and re-indexing on save. Nothing here opens the database or talks to
// the model server at activation.
import * as vscode from 'vscode';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import type { AgentEvent } from '../../core/agent/events';
import type { ModelService } from '../../editor/models/modelService';
import type { EditorSettings } from '../settings/editorSettings';
import type { FileSystemPort } from '../../core/ports';
import type { KnowledgeStorePort } from '../../core/knowledge/types';
import { IndexQueue } from '../../indexing/indexQueue';
import type { IndexResult } from '../../indexing/indexer';
import type { Logger } from '../../editor/log/logger';
import type { EditorSessionService } from '../../editor/history/sessionService';
import { serverUrl } from '../../editor/settings/harnessSettings';
import { waitUntilIdle } from '../../editor/knowledge/idle';
import { registerIndexCodeActions } from './indexCodeActions';
import { registerKnowledgeCommands } from './indexCommands';
import { IndexProgressRunner } from './indexProgress';
import { KnowledgeDocuments } from './knowledgeDocument';
import { KnowledgeService } from '../../editor/knowledge/knowledgeService';
import { KnowledgeTree } from './knowledgeTree';
import { WorkspaceNeverTypes } from './neverTypes';
import { createQueueAsker } from './queueAsker';
import { QueueStatusItem } from './queueStatus';
import { watchSaves } from './reindexOnSave';

export interface KnowledgeServiceDeps {
  sessions: EditorSessionService;
  fs: FileSystemPort;
  log: Logger;
  store: ChatStateStore;
  settings: EditorSettings;
  models: ModelService;
}

/** What the index queue hears from the chat: its events (files read). */
export interface ChatActivity {
  readonly bus: { on(listener: (event: AgentEvent) => void): () => void };
}

export function createKnowledgeService(deps: KnowledgeServiceDeps): KnowledgeService {
  const { log } = deps;
  return new KnowledgeService({
    openStore: async () => {
      // The database keeps every workspace's index: this window's is keyed by its first local folder.
      const root = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
      if (!root) return undefined;
      const store = await deps.sessions.store();
      return store ? { store: store.knowledgeFor(root), vectors: store.vectors } : undefined;
    },
    connectionKey: () => {
      const s = deps.settings.settings().settings;
      return JSON.stringify([s.provider, serverUrl(s), s.model, s.indexEmbeddingModel, s.keepAlive, s.firstByteTimeoutMs]);
    },
    connect: async (signal) => {
      // A model server named by the workspace is used only once the user allowed it, as for a chat turn.
      const { settings } = await deps.settings.settingsForRequest(signal);
      const provider = await deps.models.provider(settings);
      const model = settings.model || (await deps.models.firstChatModel(settings, signal));
      log.info(`index: using ${model} for summaries and ${settings.indexEmbeddingModel || 'no embedding model (keyword retrieval)'} for vectors`);
      return { provider, model, embedModel: settings.indexEmbeddingModel };
    },
    build: async (input) => {
      const { createKnowledge } = await import('../../indexing/knowledge');
      return createKnowledge(input);
    },
    fs: deps.fs,
    workspace: () => vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath,
    // Indexing waits while a chat turn runs; the chat store (made before the chat) knows.
    waitForIdle: (signal) => waitUntilIdle(() => deps.store.state.busy, (listener) => deps.store.subscribe(() => listener()), signal),
    onNotice: (message) => {
      log.info(`index: ${message}`);
      deps.store.notice(message);
    },
  });
}

export interface KnowledgeUiDeps {
  context: vscode.ExtensionContext;
  service: KnowledgeService;
  chat: ChatActivity;
  settings: EditorSettings;
  store: ChatStateStore;
  fs: FileSystemPort;
  log: Logger;
}

export function registerKnowledge(deps: KnowledgeUiDeps): vscode.Disposable[] {
  const { service, chat, log } = deps;
  const runner = new IndexProgressRunner(service, log);
  const tree = new KnowledgeTree(service, log);
  const documents = new KnowledgeDocuments(service);
  const status = new QueueStatusItem();
  const lifetime = new AbortController();
  const queue = createQueue(deps, runner, status, lifetime.signal);
  const offBus = chat.bus.on((event) => queue.observe(event));
  return [
    tree.register(),
    documents.register(),
    registerIndexCodeActions(),
    ...registerKnowledgeCommands({
      service,
      runner,
      tree,
      documents,
      workspaceState: deps.context.workspaceState,
      resumeQueue: () => queue.drain(lifetime.signal),
      log,
    }),
    watchSaves({ service, runner, enabled: () => deps.settings.settings().settings.reindexOnSave, log }),
    status,
    { dispose: () => (offBus(), queue.dispose(), lifetime.abort()) },
  ];
}

/** The queue, fed by the chat's events; indexing goes through the same progress runner as the commands. */
function createQueue(deps: KnowledgeUiDeps, runner: IndexProgressRunner, status: QueueStatusItem, lifetime: AbortSignal): IndexQueue {
  const { service, log } = deps;
  // The queue looks files up synchronously; the store is open by then (resolving a path opens it).
  let store: KnowledgeStorePort | undefined;
  return new IndexQueue({
    mode: () => deps.settings.settings().settings.indexOnRead,
    autoMode: 'full',
    indexer: {
      hasSummarizer: true,
      resolve: async (userPath) => {
        store ??= await service.store();
        return (await service.parts(lifetime)).indexer.resolve(userPath);
      },
      index: async (request, call): Promise<IndexResult> => {
        const [result] = await runner.run([request], { signal: call.signal });
        if (!result) throw new Error('indexing was cancelled; nothing was stored');
        return result;
      },
    },
    store: { getFile: (rel) => store?.getFile(rel) },
    fs: deps.fs,
    ask: createQueueAsker(deps.fs),
    neverTypes: new WorkspaceNeverTypes(deps.context.workspaceState),
    onChange: (length) => status.update(length),
    onNote: (message) => {
      log.info(`index queue: ${message}`);
      deps.store.notice(message);
    },
  });
}
