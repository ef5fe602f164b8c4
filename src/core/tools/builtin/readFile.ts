// read_file: a 1-based inclusive line range of a text file, with a header stating the range and the total.
import { z } from 'zod';
import { defineTool, fail, ok } from '../tool';
import { guard, lenientNumber, readTextFile, resolvePath, splitLines } from './common';
import { readImageFile } from './readImage';

export interface ReadFileOptions {
  /** Lines returned when no end_line is given (or when the range asked for is larger). */
  maxLines?: number;
  /** Character budget for one result; whole lines are kept. */
  maxChars?: number;
}

const schema = z.object({
  path: z.string(),
  start_line: lenientNumber(1).optional(),
  end_line: lenientNumber(1).optional(),
});

export function createReadFileTool(options: ReadFileOptions = {}) {
  const maxLines = options.maxLines ?? 250;
  const maxChars = options.maxChars ?? 12_000;
  return defineTool({
    name: 'read_file',
    description: 'Read a text file, optionally only lines start_line..end_line (1-based, inclusive), or an image.',
    schema,
    risk: 'read',
    describeForApproval: (args) => ({ title: `Read ${args.path}`, detail: `Read ${args.path}${rangeText(args.start_line, args.end_line)}` }),
    async invoke(args, ctx) {
      const resolved = await resolvePath(ctx, args.path);
      if (!resolved.ok) return fail(resolved.message);
      const p = resolved.path;
      return guard(
        () => p.rel,
        async () => {
          const image = await readImageFile(ctx, p);
          if (image) return image;
          const read = await readTextFile(ctx, p);
          if (!read.ok) return fail(read.message);
          const lines = splitLines(read.text!);
          const total = lines.length;
          if (total === 0) {
            ctx.tracker.fileRead(p.rel);
            return ok(`${p.rel} is empty (0 lines).`);
          }
          const start = Math.floor(args.start_line ?? 1);
          if (start > total) {
            return fail(`start_line ${start} is past the end of ${p.rel}, which has ${total} lines. Use a start_line between 1 and ${total}.`);
          }
          const askedEnd = args.end_line === undefined ? undefined : Math.floor(args.end_line);
          if (askedEnd !== undefined && askedEnd < start) {
            return fail(`end_line (${askedEnd}) is before start_line (${start}). Give end_line >= start_line.`);
          }
          const wantedEnd = Math.min(askedEnd ?? total, total);
          let end = Math.min(wantedEnd, start + maxLines - 1);
          // Keep whole lines within the character budget; a single overlong line is cut instead.
          const out: string[] = [];
          let used = 0;
          let cutLine = false;
          for (let n = start; n <= end; n++) {
            const line = lines[n - 1]!;
            if (used + line.length + 1 > maxChars) {
              if (out.length === 0) {
                out.push(line.slice(0, maxChars) + ` [… line ${n} cut at ${maxChars} of ${line.length} characters]`);
                cutLine = true;
                end = n;
              } else end = n - 1;
              break;
            }
            out.push(line);
            used += line.length + 1;
          }
          ctx.tracker.fileRead(p.rel, { start, end });
          const whole = start === 1 && end === total && !cutLine;
          const header = whole ? `${p.rel} (${total} lines):` : `${p.rel} lines ${start}-${end} of ${total}:`;
          let footer = '';
          if (end < wantedEnd) {
            footer = `\n[Showing lines ${start}-${end} of ${total}. Call read_file with start_line=${end + 1} to read more.]`;
          }
          return ok(`${header}\n${out.join('\n')}${footer}`);
        },
      );
    },
  });
}

function rangeText(start: number | undefined, end: number | undefined): string {
  if (start === undefined && end === undefined) return '';
  return ` lines ${start ?? 1}-${end ?? 'end'}`;
}
