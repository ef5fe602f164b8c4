// One server's log: our lifecycle events, its stderr and its log notifications, time-stamped into a bounded ring and
// passed on as they are written (an output channel, `--verbose`).
import { LineRingBuffer, type RingBufferLimits } from './ringBuffer';

export class ServerLog {
  private readonly buffer: LineRingBuffer;

  constructor(
    private readonly server: string,
    limits: RingBufferLimits,
    private readonly now: () => number,
    private readonly onLog: (server: string, line: string) => void,
  ) {
    this.buffer = new LineRingBuffer(limits);
  }

  write(line: string): void {
    const stamped = `${new Date(this.now()).toISOString().slice(11, 23)} ${line}`;
    for (const part of stamped.split('\n')) this.buffer.push(part);
    this.onLog(this.server, line);
  }

  lines(): string[] {
    return this.buffer.all();
  }
}
