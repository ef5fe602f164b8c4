// Retrieval for a turn: the request is matched against the workspace index once, before the turn's first model
// call; what is found travels with the request (see workingContext.ts). Never fails the turn.
import type { EventBus } from '../agent/events';
import { errorMessage } from '../../shared/format';
import type { Retrieval } from '../knowledge/types';
import { renderRetrievedContext } from '../knowledge/renderRetrieval';
import { estimateTokens } from '../tokens';
import type { SessionKnowledge } from './sessionOptions';

/** Share of the window the retrieved code may take, and a cap: a small window keeps room for the work itself. */
const RETRIEVAL_SHARE = 0.15;
const RETRIEVAL_MAX_TOKENS = 1500;

export class SessionRetrieval {
  /** Retriever notices already shown ("retrieval uses keywords" is news once, not every turn). */
  private readonly saidNotices = new Set<string>();

  constructor(
    private readonly knowledge: SessionKnowledge,
    private readonly bus: EventBus,
    /** The window the next request is budgeted against (0 when unknown). */
    private readonly window: (signal: AbortSignal) => Promise<number>,
  ) {}

  /** The retrieved code as it travels with the request; undefined when there is none. */
  async forRequest(query: string, signal: AbortSignal): Promise<string | undefined> {
    const { knowledge, bus } = this;
    let retrieval: Retrieval;
    try {
      retrieval = await knowledge.retriever!.retrieve(query, { ...(knowledge.k !== undefined && { k: knowledge.k }), signal });
    } catch (err) {
      if (signal.aborted) throw err;
      bus.emit({ type: 'notice', message: `The workspace index could not be searched (${errorMessage(err)}); this turn goes on without retrieved code.` });
      return undefined;
    }
    const text = retrieval.items.length ? renderRetrievedContext(retrieval, await this.budget(signal)).trim() : '';
    const notice = retrieval.notice && !this.saidNotices.has(retrieval.notice) ? retrieval.notice : undefined;
    if (notice) this.saidNotices.add(notice);
    if (retrieval.items.length || notice) {
      bus.emit({
        type: 'retrieval',
        query: retrieval.query,
        method: retrieval.method,
        items: retrieval.items.map((c) => ({
          rank: c.rank,
          file: c.file,
          startLine: c.startLine,
          endLine: c.endLine,
          score: c.score,
          why: c.why,
          ...(c.name !== undefined && { name: c.name }),
          neighbours: c.neighbours.length,
        })),
        tokens: text ? estimateTokens(text) : 0,
        ...(notice && { notice }),
      });
    }
    return text || undefined;
  }

  private async budget(signal: AbortSignal): Promise<number> {
    const window = await this.window(signal).catch(() => 0);
    return window > 0 ? Math.min(RETRIEVAL_MAX_TOKENS, Math.floor(window * RETRIEVAL_SHARE)) : RETRIEVAL_MAX_TOKENS;
  }
}
