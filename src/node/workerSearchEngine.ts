// search_files' regular expressions run in a worker thread with a deadline: JavaScript's engine backtracks, so
// a pattern like (a+)+$ on "aaaa…!" can take longer than the universe. Off the main thread the event loop stays
// free (Ctrl-C, Stop and the editor keep working); past the deadline, or on abort, the worker is terminated at
// once, which ends even a match that never returns. Used by both hosts (the CLI and the extension host).
import { Worker } from 'node:worker_threads';
import {
  MAX_LINE_SCAN,
  SearchCancelledError,
  SearchTooSlowError,
  type LineMatch,
  type SearchEngine,
  type SearchSession,
} from '../core/tools/builtin/searchEngine';

export interface WorkerSearchOptions {
  /** Longest one batch of texts may take to match before the pattern is judged too slow. */
  deadlineMs?: number;
}

/** Plain JavaScript (a bundle has no separate file to point a worker at); mirrors core's matchLines. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, workerData.flags);
const MAX = workerData.maxLineScan;
parentPort.on('message', ({ id, texts, limit }) => {
  const out = [];
  for (let f = 0; f < texts.length && out.length < limit; f++) {
    const lines = texts[f].split(/\\r?\\n/);
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length && out.length < limit; i++) {
      const line = lines[i];
      if (re.test(line.length > MAX ? line.slice(0, MAX) : line)) out.push({ file: f, line: i, text: line });
    }
  }
  parentPort.postMessage({ id, matches: out });
});
`;

export function createWorkerSearchEngine(options: WorkerSearchOptions = {}): SearchEngine {
  const deadlineMs = options.deadlineMs ?? 3000;
  return {
    open(source, flags, signal) {
      return new WorkerSession(source, flags, signal, deadlineMs);
    },
  };
}

class WorkerSession implements SearchSession {
  private worker: Worker | undefined;
  private seq = 0;

  constructor(
    private readonly source: string,
    private readonly flags: string,
    private readonly signal: AbortSignal,
    private readonly deadlineMs: number,
  ) {}

  match(texts: readonly string[], limit: number): Promise<LineMatch[]> {
    if (this.signal.aborted) return Promise.reject(new SearchCancelledError());
    const worker = (this.worker ??= this.start());
    const id = ++this.seq;
    return new Promise<LineMatch[]>((resolve, reject) => {
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        fn();
      };
      const onMessage = (msg: { id: number; matches: LineMatch[] }) => {
        if (msg.id === id) settle(() => resolve(msg.matches));
      };
      const onError = (err: Error) => settle(() => (this.close(), reject(err)));
      const onAbort = () => settle(() => (this.close(), reject(new SearchCancelledError())));
      // terminate() stops the worker even in the middle of a match that would never return.
      const timer = setTimeout(() => settle(() => (this.close(), reject(new SearchTooSlowError(this.deadlineMs)))), this.deadlineMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      this.signal.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, texts, limit });
    });
  }

  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: this.source, flags: this.flags, maxLineScan: MAX_LINE_SCAN },
      // A search needs little memory; a runaway one must not take the host's.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker.on('error', () => undefined); // reported to the pending match, if any; never an uncaught event
    worker.unref();
    return worker;
  }
}
