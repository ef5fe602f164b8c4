// The logging port and the secret scrubber every log line passes through. Pure: vscode's LogOutputChannel
// satisfies `LogSink` structurally, tests use a recording sink.
import { errorMessage } from '../../shared/format';

export interface LogSink {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type LogLevel = keyof LogSink;

/** Patterns that look like credentials wherever they appear (headers, URLs, JSON). */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, '[redacted-key]'],
  [/("?(?:api[_-]?key|apikey|authorization|password|secret|token)"?\s*[:=]\s*"?)(?!(?:Bearer|Basic)\s|\[redacted)[^"\s,&}]+/gi, '$1[redacted]'],
  // user:password@ in URLs
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, '$1[redacted]@'],
];

/** Removes known secret values and anything shaped like a credential. */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Values that must never reach the log (e.g. the API key read from SecretStorage). */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  removeSecret(value: string | undefined): void {
    if (value) this.secrets.delete(value);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }
}

/** A logger that scrubs and shortens every line before it reaches the sink. */
export class Logger {
  constructor(
    private readonly sink: LogSink,
    readonly redactor: Redactor = new Redactor(),
    private readonly maxLineChars = 2000,
  ) {}

  trace(message: string): void {
    this.write('trace', message);
  }
  debug(message: string): void {
    this.write('debug', message);
  }
  info(message: string): void {
    this.write('info', message);
  }
  warn(message: string): void {
    this.write('warn', message);
  }
  error(message: string, err?: unknown): void {
    this.write('error', err === undefined ? message : `${message}: ${errorMessage(err)}`);
  }

  write(level: LogLevel, message: string): void {
    try {
      this.sink[level](shorten(this.redactor.redact(message), this.maxLineChars));
    } catch {
      // A disposed output channel must never break the agent.
    }
  }
}

export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

export { errorMessage };
