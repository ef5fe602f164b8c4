// write_file: create or overwrite a whole file (parent folders are created), keeping an existing file's encoding
// and line endings. The write guard refuses content with placeholders for left-out code, and a rewrite that
// would delete most of an existing file unless the model sends it again.
import { z } from 'zod';
import { defineTool, fail, ok, type ToolContext } from '../tool';
import { countLines, fsErrorMessage, guard, plural, readTextFile, resolvePath } from './common';
import { summarizeChange } from './diffSummary';
import { applyChange, describeChange, encodeFor, rangeText, ToolInputError, writeTarget, type Plan } from './fileChange';
import { placeholderRefusal, ShrinkGuard } from './writeGuard';
import { dominantLineEnding, withLineEnding } from '../encoding/lineEndings';

const schema = z.object({ path: z.string(), content: z.string() });
type Args = z.infer<typeof schema>;

async function plan(args: Args, ctx: ToolContext, shrink: ShrinkGuard): Promise<Plan> {
  const resolved = await resolvePath(ctx, args.path);
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const p = resolved.path;
  try {
    const existing = await readTextFile(ctx, p, true);
    if (!existing.ok) return { ok: false, message: existing.message };
    const before = existing.text;
    // Models write "\n": an existing file keeps its own dominant line ending.
    const after = before !== undefined && before.includes('\n') ? withLineEnding(args.content, dominantLineEnding(before)) : args.content;
    if (before !== after) {
      const refusal = placeholderRefusal('write_file', p.rel, args.content, before) ?? shrink.check(p.rel, before, after);
      if (refusal) return { ok: false, message: refusal };
    }
    const encoded = encodeFor(p.rel, existing.exists ? existing.format : undefined, after);
    if (!encoded.ok) return { ok: false, message: encoded.message };
    const target = await writeTarget(ctx, p.abs);
    const change = { path: p, target, before, after, summary: summarizeChange(before, after), ...(encoded.bytes && { bytes: encoded.bytes }) };
    return { ok: true, change };
  } catch (err) {
    return { ok: false, message: fsErrorMessage(err, p.rel) };
  }
}

export function createWriteFileTool() {
  const shrink = new ShrinkGuard();
  return defineTool({
    name: 'write_file',
    description: 'Create or overwrite a file with the given content.',
    schema,
    risk: 'write',
    async describeForApproval(args, ctx) {
      const planned = await plan(args, ctx, shrink);
      if (!planned.ok) throw new ToolInputError(planned.message);
      return describeChange(planned.change.before === undefined ? 'Create' : 'Overwrite', planned.change);
    },
    async invoke(args, ctx) {
      const planned = await plan(args, ctx, shrink);
      if (!planned.ok) return fail(planned.message);
      const change = planned.change;
      const rel = change.path.rel;
      if (change.before === change.after) return ok(`${rel} already has exactly this content; nothing written.`);
      return guard(
        () => rel,
        async () => {
          await applyChange(ctx, change);
          shrink.written(rel, change.after);
          const lines = plural(countLines(change.after), 'line');
          if (change.before === undefined) return ok(`Created ${rel} (${lines}).`);
          return ok(`Wrote ${rel}: ${lines}, +${change.summary.added} −${change.summary.removed}${rangeText(change)}.`);
        },
      );
    },
  });
}
