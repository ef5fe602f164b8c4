// The session's context-window manager: compression continues the conversation as the server holds it (same model
// options, same request form), and every compression and window change is told on the event stream.
import type { ChatMessage, ToolDefinition } from '../messages';
import { createContextManager } from '../compression/contextManager';
import type { ContextManager } from '../compression/contextManagerApi';
import type { CompressionReport } from '../compression/compressor';
import type { EventBus } from '../agent/events';
import { toTextProtocolMessages } from '../toolProtocol/textMessages';
import type { ToolProtocol } from '../toolProtocol/protocolSetting';
import { requestTools } from '../prompt/requestLayout';
import type { AgentSessionOptions } from './sessionOptions';

export function createSessionContext(o: AgentSessionOptions, protocol: () => ToolProtocol, tools: () => readonly ToolDefinition[]): ContextManager | undefined {
  if (!o.context) return undefined;
  const manager = createContextManager({
    compressionModel: {
      provider: o.provider,
      model: o.model,
      ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
      ...(o.think !== undefined && { think: o.think }),
      toRequest: (messages: ChatMessage[]) => (protocol() === 'xml' ? toTextProtocolMessages(messages) : messages),
    },
    ...o.context,
    provider: o.provider,
    model: o.model,
    ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
    ...(o.knowledge?.summaries && { summaries: o.knowledge.summaries }),
    // The definitions the request carries (none in xml mode: the system prompt lists them).
    tools: () => requestTools(protocol(), tools()),
    callBudget: true,
    onWindowChange: (change) => o.bus.emit({ type: 'context_window', ...change }),
    onCompression: (report) => {
      emitCompression(o.bus, report);
      o.context?.onCompression?.(report);
    },
  });
  o.bus.on((e) => {
    if (e.type === 'usage') manager.recordUsage(e);
  });
  return manager;
}

function emitCompression(bus: EventBus, report: CompressionReport): void {
  bus.emit({
    type: 'compression',
    method: report.method,
    reason: report.reason,
    tokensBefore: report.tokensBefore,
    tokensAfter: report.tokensAfter,
    messagesAffected: report.messagesAffected,
    window: report.window,
    targetMet: report.targetMet,
    modelCalls: report.modelCalls ?? 0,
    budget: report.budget ?? { used: report.modelCalls ?? 0, limit: 0 },
    ...(report.skipped && { skipped: report.skipped }),
    ...(report.indexSummaries && { indexTokensSaved: report.indexSummaries.tokensSaved }),
  });
}
