// A LogSink test double that keeps every line: `lines` with the level in front, as the output channel shows them,
// and `messages` as logged.
import type { LogSink } from '../../src/editor/log/logger';

export class RecordingLogSink implements LogSink {
  readonly lines: string[] = [];
  readonly messages: string[] = [];
  trace(m: string): void {
    this.record('trace', m);
  }
  debug(m: string): void {
    this.record('debug', m);
  }
  info(m: string): void {
    this.record('info', m);
  }
  warn(m: string): void {
    this.record('warn', m);
  }
  error(m: string): void {
    this.record('error', m);
  }
  private record(level: string, m: string): void {
    this.lines.push(`${level} ${m}`);
    this.messages.push(m);
  }
}
