// move_file: rename or move a file or folder inside the workspace; never overwrites.
import { z } from 'zod';
import * as path from 'node:path';
import { defineTool, fail, ok, type ToolContext } from '../tool';
import { isInside } from '../../workspace/workspaceRoots';
import { fsErrorMessage, resolvePath, type ResolvedPath } from './common';
import { ToolInputError } from './fileChange';

const schema = z.object({ source: z.string(), destination: z.string() });
type Args = z.infer<typeof schema>;

type MovePlan = { ok: true; from: ResolvedPath; to: ResolvedPath } | { ok: false; message: string };

async function plan(args: Args, ctx: ToolContext): Promise<MovePlan> {
  // Independent look-ups run together; the source's problem is still the one reported first.
  const [from, to] = await Promise.all([resolvePath(ctx, args.source), resolvePath(ctx, args.destination)]);
  if (!from.ok) return { ok: false, message: from.message };
  if (!to.ok) return { ok: false, message: to.message };
  const src = from.path;
  const dst = to.path;
  try {
    const [srcStat, dstStat] = await Promise.all([ctx.fs.lstat(src.abs), ctx.fs.lstat(dst.abs)]);
    if (!srcStat) return { ok: false, message: `Source "${src.rel}" does not exist. Check the path with list_directory.` };
    if (ctx.roots.folders.some((f) => path.resolve(f.path) === src.abs)) {
      return { ok: false, message: `"${src.rel}" is a workspace folder and cannot be moved.` };
    }
    if (srcStat.kind === 'directory' && isInside(src.abs, dst.abs)) {
      return { ok: false, message: `Cannot move "${src.rel}" into itself ("${dst.rel}"). Choose a destination outside it.` };
    }
    // On case-insensitive file systems a case-only rename finds "itself" at the destination: allow that.
    const sameFile = dstStat && (await ctx.fs.realpath(dst.abs)) === (await ctx.fs.realpath(src.abs)) && src.abs !== dst.abs;
    if (dstStat && !sameFile) {
      return {
        ok: false,
        message: `Destination "${dst.rel}" already exists; move_file never overwrites. Choose another destination, or edit the existing file instead.`,
      };
    }
    return { ok: true, from: src, to: dst };
  } catch (err) {
    return { ok: false, message: fsErrorMessage(err, src.rel) };
  }
}

export function createMoveFileTool() {
  return defineTool({
    name: 'move_file',
    description: 'Move or rename a file or folder; fails if the destination exists.',
    schema,
    risk: 'write',
    async describeForApproval(args, ctx) {
      const planned = await plan(args, ctx);
      if (!planned.ok) throw new ToolInputError(planned.message);
      return { title: `Move ${planned.from.rel} → ${planned.to.rel}`, detail: `Move ${planned.from.rel} to ${planned.to.rel}` };
    },
    async invoke(args, ctx) {
      const planned = await plan(args, ctx);
      if (!planned.ok) return fail(planned.message);
      const { from, to } = planned;
      try {
        await ctx.fs.mkdir(path.dirname(to.abs));
        await ctx.fs.rename(from.abs, to.abs);
      } catch (err) {
        return fail(fsErrorMessage(err, `${from.rel} → ${to.rel}`));
      }
      ctx.tracker.fileMoved(from.rel, to.rel);
      return ok(`Moved ${from.rel} to ${to.rel}.`);
    },
  });
}
