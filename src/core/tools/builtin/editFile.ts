// edit_file: replace one exact occurrence of old_text with new_text.
import { z } from 'zod';
import { defineTool, fail, ok, type ToolContext } from '../tool';
import { countLines, fsErrorMessage, guard, lineAt, plural, readTextFile, resolvePath } from './common';
import { summarizeChange } from './diffSummary';
import { closestLines, findOccurrences, lineNumbersOf } from './editMatch';
import { applyChange, describeChange, encodeFor, ToolInputError, writeTarget, type Plan } from './fileChange';
import { placeholderRefusal } from './writeGuard';
import { dominantLineEnding, withLineEnding } from '../encoding/lineEndings';

const schema = z.object({ path: z.string(), old_text: z.string(), new_text: z.string() });
type Args = z.infer<typeof schema>;

async function plan(args: Args, ctx: ToolContext): Promise<Plan> {
  const resolved = await resolvePath(ctx, args.path);
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const p = resolved.path;
  if (args.old_text === '') {
    return { ok: false, message: 'old_text is empty. Copy the exact text to replace from read_file output, or use write_file to create a file.' };
  }
  if (args.old_text === args.new_text) {
    return { ok: false, message: 'old_text and new_text are identical, so the edit would change nothing. Put the changed text in new_text.' };
  }
  try {
    const read = await readTextFile(ctx, p);
    if (!read.ok) return { ok: false, message: read.message };
    if (!read.exists) return { ok: false, message: `File "${p.rel}" does not exist.` };
    const text = read.text;
    const found = findOccurrences(text, args.old_text, args.new_text);
    if (found.offsets.length === 0) {
      const near = closestLines(text, args.old_text);
      const hint = near ? `\nThe closest lines in the file are:\n${near}` : '';
      return {
        ok: false,
        message: `old_text was not found in ${p.rel}. Call read_file on ${p.rel} again and copy the exact text, including indentation and whitespace.${hint}`,
      };
    }
    if (found.offsets.length > 1) {
      const lines = lineNumbersOf(text, found.offsets.slice(0, 10)).join(', ');
      return {
        ok: false,
        message: `old_text occurs ${found.offsets.length} times in ${p.rel} (at lines ${lines}${found.offsets.length > 10 ? ', …' : ''}). Include more surrounding lines in old_text so it matches exactly once.`,
      };
    }
    const refusal = placeholderRefusal('edit_file', p.rel, args.new_text, text);
    if (refusal) return { ok: false, message: refusal };
    const at = found.offsets[0]!;
    // Models write "\n": the new lines take the file's own line ending.
    const newText = text.includes('\n') ? withLineEnding(found.newText, dominantLineEnding(text)) : found.newText;
    const after = text.slice(0, at) + newText + text.slice(at + found.oldText.length);
    const summary = summarizeChange(text, after);
    // The tracker gets the lines the new text occupies, which is more precise than the diff's hunk span.
    const start = lineAt(after, at);
    const end = newText === '' ? start : lineAt(after, at + newText.length - 1);
    summary.range = { start, end: Math.max(start, end) };
    const encoded = encodeFor(p.rel, read.format, after);
    if (!encoded.ok) return { ok: false, message: encoded.message };
    const target = await writeTarget(ctx, p.abs);
    return { ok: true, change: { path: p, target, before: text, after, summary, ...(encoded.bytes && { bytes: encoded.bytes }) } };
  } catch (err) {
    return { ok: false, message: fsErrorMessage(err, p.rel) };
  }
}

export function createEditFileTool() {
  return defineTool({
    name: 'edit_file',
    description: 'Replace old_text, which must appear exactly once in the file, with new_text.',
    schema,
    risk: 'write',
    async describeForApproval(args, ctx) {
      const planned = await plan(args, ctx);
      if (!planned.ok) throw new ToolInputError(planned.message);
      return describeChange('Edit', planned.change);
    },
    async invoke(args, ctx) {
      const planned = await plan(args, ctx);
      if (!planned.ok) return fail(planned.message);
      const change = planned.change;
      return guard(
        () => change.path.rel,
        async () => {
          await applyChange(ctx, change);
          const r = change.summary.range!;
          const oldLines = Math.max(countLines(args.old_text), 1);
          if (args.new_text === '') return ok(`Edited ${change.path.rel}: removed ${plural(oldLines, 'line')} at line ${r.start}.`);
          const where = r.start === r.end ? `line ${r.start}` : `lines ${r.start}-${r.end}`;
          return ok(`Edited ${change.path.rel}: replaced ${plural(oldLines, 'line')}; the new text is at ${where}.`);
        },
      );
    },
  });
}
