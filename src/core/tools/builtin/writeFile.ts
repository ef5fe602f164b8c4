// write_file: create or overwrite a whole file (parent folders are created), keeping the file's line endings.
import { z } from 'zod';
import { defineTool, fail, ok, type ToolContext } from '../tool';
import { countLines, fsErrorMessage, guard, plural, readTextFile, resolvePath, toCrlf, usesCrlf } from './common';
import { summarizeChange } from './diffSummary';
import { applyChange, describeChange, rangeText, ToolInputError, writeTarget, type Plan } from './fileChange';

const schema = z.object({ path: z.string(), content: z.string() });
type Args = z.infer<typeof schema>;

async function plan(args: Args, ctx: ToolContext): Promise<Plan> {
  const resolved = await resolvePath(ctx, args.path);
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const p = resolved.path;
  try {
    const existing = await readTextFile(ctx, p, true);
    if (!existing.ok) return { ok: false, message: existing.message };
    const before = existing.text;
    const after = before !== undefined && usesCrlf(before) && !args.content.includes('\r') ? toCrlf(args.content) : args.content;
    const target = await writeTarget(ctx, p.abs);
    return { ok: true, change: { path: p, target, before, after, summary: summarizeChange(before, after) } };
  } catch (err) {
    return { ok: false, message: fsErrorMessage(err, p.rel) };
  }
}

export function createWriteFileTool() {
  return defineTool({
    name: 'write_file',
    description: 'Create or overwrite a file with the given content.',
    schema,
    risk: 'write',
    async describeForApproval(args, ctx) {
      const planned = await plan(args, ctx);
      if (!planned.ok) throw new ToolInputError(planned.message);
      return describeChange(planned.change.before === undefined ? 'Create' : 'Overwrite', planned.change);
    },
    async invoke(args, ctx) {
      const planned = await plan(args, ctx);
      if (!planned.ok) return fail(planned.message);
      const change = planned.change;
      const rel = change.path.rel;
      if (change.before === change.after) return ok(`${rel} already has exactly this content; nothing written.`);
      return guard(
        () => rel,
        async () => {
          await applyChange(ctx, change);
          const lines = plural(countLines(change.after), 'line');
          if (change.before === undefined) return ok(`Created ${rel} (${lines}).`);
          return ok(`Wrote ${rel}: ${lines}, +${change.summary.added} −${change.summary.removed}${rangeText(change)}.`);
        },
      );
    },
  });
}
