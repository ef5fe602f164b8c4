// How search_files matches lines: an engine takes batches of file texts and returns the matching lines. Hosts
// inject one that runs the regular expression off the main thread with a deadline (src/node/workerSearchEngine),
// so a catastrophically backtracking pattern such as (a+)+$ can neither freeze the editor nor ignore Ctrl-C.
// The in-thread engine here is the fallback for hosts without threads (and for unit tests of the walk).

export interface LineMatch {
  /** Index of the file in the batch. */
  file: number;
  /** 0-based line index, as splitLines counts. */
  line: number;
  text: string;
}

export interface SearchSession {
  /** Matching lines of these texts, in order, at most `limit`. Rejects with SearchTooSlowError past the deadline. */
  match(texts: readonly string[], limit: number): Promise<LineMatch[]>;
  /** Free the session's resources (a worker); idempotent. */
  close(): void;
}

export interface SearchEngine {
  /** A session for one compiled pattern; aborting `signal` ends any match at once (rejecting with SearchCancelledError). */
  open(source: string, flags: string, signal: AbortSignal): SearchSession;
}

export class SearchTooSlowError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`matching took longer than ${deadlineMs} ms`);
    this.name = 'SearchTooSlowError';
  }
}

export class SearchCancelledError extends Error {
  constructor() {
    super('search cancelled');
    this.name = 'SearchCancelledError';
  }
}

/** Only the start of very long lines (minified files) is searched: bounds regex cost and output. */
export const MAX_LINE_SCAN = 2000;

/** The matching itself, shared by the in-thread engine (the worker carries the same few lines as source text). */
export function matchLines(re: RegExp, texts: readonly string[], limit: number): LineMatch[] {
  const out: LineMatch[] = [];
  for (let f = 0; f < texts.length && out.length < limit; f++) {
    const lines = texts[f]!.split(/\r?\n/);
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length && out.length < limit; i++) {
      const line = lines[i]!;
      if (re.test(line.length > MAX_LINE_SCAN ? line.slice(0, MAX_LINE_SCAN) : line)) out.push({ file: f, line: i, text: line });
    }
  }
  return out;
}

/** Matches on the calling thread, one file at a time, yielding to the event loop between files. No deadline. */
export const inThreadSearchEngine: SearchEngine = {
  open(source, flags, signal) {
    const re = new RegExp(source, flags);
    return {
      async match(texts, limit) {
        const out: LineMatch[] = [];
        for (let f = 0; f < texts.length && out.length < limit; f++) {
          if (signal.aborted) throw new SearchCancelledError();
          for (const m of matchLines(re, [texts[f]!], limit - out.length)) out.push({ ...m, file: f });
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        return out;
      },
      close() {},
    };
  },
};
