// list_directory: one level of a folder, directories first, with sizes, capped.
import { z } from 'zod';
import * as path from 'node:path';
import { defineTool, fail, ok } from '../tool';
import { formatSize, guard, plural, resolvePath } from './common';

export interface ListDirectoryOptions {
  maxEntries?: number;
}

const schema = z.object({ path: z.string() });

export function createListDirectoryTool(options: ListDirectoryOptions = {}) {
  const maxEntries = options.maxEntries ?? 500;
  return defineTool({
    name: 'list_directory',
    description: 'List files and folders in a directory ("." is the workspace root).',
    schema,
    risk: 'read',
    describeForApproval: (args) => ({ title: `List ${args.path || '.'}`, detail: `List the contents of ${args.path || '.'}` }),
    async invoke(args, ctx) {
      const resolved = await resolvePath(ctx, args.path);
      if (!resolved.ok) return fail(resolved.message);
      const p = resolved.path;
      return guard(
        () => p.rel,
        async () => {
          const stat = await ctx.fs.lstat(p.abs);
          if (!stat) return fail(`Directory "${p.rel}" does not exist. List its parent directory to see what is there.`);
          if (stat.kind !== 'directory') return fail(`"${p.rel}" is a file, not a directory. Use read_file to read it.`);
          const entries = await ctx.fs.readDirectory(p.abs);
          const dirs = entries.filter((e) => e.kind === 'directory').sort(byName);
          const others = entries.filter((e) => e.kind !== 'directory').sort(byName);
          const sorted = [...dirs, ...others];
          const shown = sorted.slice(0, maxEntries);
          const lines: string[] = [];
          for (const entry of shown) {
            if (ctx.signal.aborted) return fail('Cancelled.');
            if (entry.kind === 'directory') lines.push(`[dir]  ${entry.name}/`);
            else if (entry.kind === 'symlink') lines.push(`[link] ${entry.name}`);
            else if (entry.kind === 'file') {
              const s = await ctx.fs.lstat(path.join(p.abs, entry.name));
              lines.push(`[file] ${entry.name}${s ? ` (${formatSize(s.size)})` : ''}`);
            } else lines.push(`[other] ${entry.name}`);
          }
          const header = `${p.rel === '.' ? 'Workspace root' : p.rel}: ${plural(dirs.length, 'directory', 'directories')}, ${plural(others.length, 'file')}`;
          if (sorted.length === 0) return ok(`${header} (empty).`);
          const left = sorted.length - shown.length;
          const more = left > 0 ? `\n… ${left} more entries not shown. List a subdirectory or use search_files with a glob to narrow down.` : '';
          return ok(`${header}\n${lines.join('\n')}${more}`);
        },
      );
    },
  });
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
