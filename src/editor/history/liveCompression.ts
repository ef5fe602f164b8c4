// A compression during the chat: marks the compressed messages in the panel ("[Compressed]", original
// expandable) and stores the compressed copies and the context state with the session.
import type { AgentSession } from '../../core/session/agentSession';
import type { CompressionReport } from '../../core/compression/compressor';
import type { SessionRecorder } from '../../persistence/sessionRecorder';
import type { ChatEvent } from '../../shared/protocol';
import { markFor } from './compressionMarks';

export interface MarkSink {
  dispatch(event: ChatEvent): void;
}

export function showCompression(report: CompressionReport, session: AgentSession, panel: MarkSink, recorder: SessionRecorder | undefined): void {
  recorder?.onCompression(report, session.context?.state());
  for (const c of report.compressed) {
    const index = session.history.indexOf(c.original);
    const mark = index >= 0 ? markFor(session.history, index, c.compressed.content) : undefined;
    if (mark) panel.dispatch(mark);
  }
}
