// Questions on a terminal, one line per answer. Lines typed ahead are kept for the next question, so a script
// (or a test's stream) can answer a whole form at once. Ctrl-C, end of input and abort all mean "no answer".
import { createInterface } from 'node:readline';

export interface TerminalLines {
  /** Shows `prompt`; resolves with the next line, or undefined after Ctrl-C, end of input or abort. */
  ask(prompt: string): Promise<string | undefined>;
  write(text: string): void;
  close(): void;
}

export function terminalLines(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, signal: AbortSignal): TerminalLines {
  const isTTY = (input as { isTTY?: boolean }).isTTY === true;
  const echo = !isTTY;
  const rl = createInterface({ input, output, terminal: isTTY });
  const queued: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let ended = false;
  let closed = false;
  const end = () => {
    ended = true;
    const resolve = waiting;
    waiting = undefined;
    resolve?.(undefined);
  };
  rl.on('line', (line) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(line);
    } else queued.push(line);
  });
  rl.on('close', () => {
    closed = true;
    end();
  });
  // On a terminal readline turns Ctrl-C into this event (raw mode): it cancels the question, not the run.
  rl.on('SIGINT', () => {
    output.write('^C\n');
    end();
  });
  signal.addEventListener('abort', end, { once: true });
  return {
    ask(prompt) {
      if (closed) output.write(prompt);
      else {
        rl.setPrompt(prompt);
        rl.prompt();
      }
      const next: Promise<string | undefined> =
        signal.aborted ? Promise.resolve(undefined)
        : queued.length > 0 ? Promise.resolve(queued.shift())
        : ended ? Promise.resolve(undefined)
        : new Promise((resolve) => (waiting = resolve));
      // A terminal echoes what is typed; a piped or scripted answer is shown after its prompt so the transcript reads the same.
      return echo ? next.then((line) => (line !== undefined && output.write(`${line}\n`), line)) : next;
    },
    write(text) {
      output.write(text);
    },
    close() {
      signal.removeEventListener('abort', end);
      if (!closed) rl.close();
    },
  };
}

let tail: Promise<unknown> = Promise.resolve();

/** Runs terminal conversations one at a time: two servers asking at once must not interleave their questions. */
export function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = tail.then(work, work);
  tail = result.catch(() => undefined);
  return result;
}

/**
 * Text from an MCP server made safe to print on a terminal: control characters (escape sequences that could
 * move the cursor, rewrite earlier lines or change the title) become visible `\xNN` escapes.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
