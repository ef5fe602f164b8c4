// search_files: a regex (or literal) over the text files under a path, gitignore-aware, results as `path:line: text`.
import { z } from 'zod';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { defineTool, fail, ok, type ToolContext } from '../tool';
import { guard, looksBinary, plural, resolvePath, type ResolvedPath } from './common';
import { walkFiles, type WalkStats } from './walk';
import { escapeRegExp } from '../../../shared/escape';
import { inThreadSearchEngine, SearchCancelledError, SearchTooSlowError, type SearchEngine } from './searchEngine';

export interface SearchFilesOptions {
  maxResults?: number;
  /** Directory entries examined before the walk stops. */
  maxEntries?: number;
  /** Files larger than this are skipped. */
  maxFileBytes?: number;
  /** Where patterns are matched; hosts pass the worker engine (a deadline, and the event loop stays free). */
  engine?: SearchEngine;
}

const schema = z.object({
  pattern: z.string().min(1),
  path: z.string().optional(),
  glob: z.string().optional().describe('e.g. "*.ts" or "src/**/*.py"'),
});

/** Only the start of very long lines is shown (the engine searches the first MAX_LINE_SCAN characters). */
const MAX_LINE_SHOWN = 200;
/** Texts go to the engine in batches of about this many characters. */
const BATCH_CHARS = 256 * 1024;
const BATCH_FILES = 64;

export function createSearchFilesTool(options: SearchFilesOptions = {}) {
  const maxResults = options.maxResults ?? 100;
  const maxEntries = options.maxEntries ?? 20_000;
  const maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
  const engine = options.engine ?? inThreadSearchEngine;
  return defineTool({
    name: 'search_files',
    description: 'Search file contents with a regex; returns path:line: text matches.',
    schema,
    risk: 'read',
    describeForApproval: (args) => ({
      title: `Search for ${args.pattern}`,
      detail: `Search for /${args.pattern}/ in ${args.path ?? '.'}${args.glob ? ` (files matching ${args.glob})` : ''}`,
    }),
    async invoke(args, ctx) {
      const resolved = await resolvePath(ctx, args.path ?? '.');
      if (!resolved.ok) return fail(resolved.message);
      const p = resolved.path;
      return guard(
        () => p.rel,
        async () => {
          const stat = await ctx.fs.lstat(p.abs);
          if (!stat) return fail(`"${p.rel}" does not exist. Use list_directory to find the right path, or omit path to search the whole workspace.`);

          let regex: RegExp;
          let note = '';
          try {
            regex = new RegExp(args.pattern);
          } catch (err) {
            regex = new RegExp(escapeRegExp(args.pattern));
            note = `Note: "${args.pattern}" is not a valid regular expression (${(err as Error).message}); searched for it as literal text.\n`;
          }
          const globMatch = args.glob ? globMatcher(args.glob) : undefined;

          const matches: string[] = [];
          let total = 0;
          let filesSearched = 0;
          let filesWithMatches = 0;
          let skippedLarge = 0;
          const stats: WalkStats = { entries: 0, truncated: false };
          const limit = maxResults * 5; // stop counting well past what we show

          const session = engine.open(regex.source, regex.flags, ctx.signal);
          let batch: Array<{ shown: string; text: string }> = [];
          let batchChars = 0;
          const flush = async () => {
            if (batch.length === 0) return;
            const found = await session.match(batch.map((b) => b.text), limit - total);
            let lastFile = -1;
            for (const m of found) {
              if (m.file !== lastFile) filesWithMatches++;
              lastFile = m.file;
              total++;
              if (matches.length < maxResults) matches.push(`${batch[m.file]!.shown}:${m.line + 1}: ${clip(m.text.trim())}`);
            }
            batch = [];
            batchChars = 0;
          };
          try {
            for await (const file of filesUnder(ctx, p, stat.kind === 'directory', maxEntries, stats)) {
              if (ctx.signal.aborted) return fail('Search cancelled.');
              if (globMatch && !globMatch(file.relToStart) && !globMatch(file.relToFolder)) continue;
              const fileStat = await ctx.fs.lstat(file.abs);
              if (!fileStat || fileStat.kind !== 'file') continue;
              if (fileStat.size > maxFileBytes) {
                skippedLarge++;
                continue;
              }
              let text: string;
              try {
                text = await ctx.fs.readFile(file.abs);
              } catch {
                continue; // unreadable file: skip
              }
              if (looksBinary(text)) continue;
              filesSearched++;
              if (filesSearched % 500 === 0) ctx.onProgress?.(`Searched ${filesSearched} files…`);
              batch.push({ shown: ctx.roots.relative(file.abs), text });
              batchChars += text.length;
              if (batchChars >= BATCH_CHARS || batch.length >= BATCH_FILES) await flush();
              if (total >= limit) break;
            }
            if (total < limit) await flush();
          } catch (err) {
            if (err instanceof SearchCancelledError) return fail('Search cancelled.');
            if (err instanceof SearchTooSlowError) return fail(tooSlow(args.pattern, err.deadlineMs, filesSearched));
            throw err;
          } finally {
            session.close();
          }

          const where = p.rel === '.' ? 'the workspace' : p.rel;
          const filters = args.glob ? ` matching ${args.glob}` : '';
          const notes: string[] = [];
          if (stats.truncated) notes.push(`Stopped after examining ${stats.entries} entries; give a narrower path or glob to search the rest.`);
          if (skippedLarge) notes.push(`Skipped ${plural(skippedLarge, 'file')} over ${Math.round(maxFileBytes / 1024)} KB.`);
          const tail = notes.length ? '\n' + notes.join('\n') : '';
          if (total === 0) {
            return ok(`${note}No matches for /${regex.source}/ in ${where}${filters} (${plural(filesSearched, 'file')} searched).${tail}`);
          }
          const count = total >= limit ? `at least ${total} matches` : plural(total, 'match', 'matches');
          const header = `${note}${count} in ${plural(filesWithMatches, 'file')} for /${regex.source}/ in ${where}${filters}:`;
          const more = total > matches.length ? `\n… ${total - matches.length}${total >= limit ? '+' : ''} more matches not shown. Use a more specific pattern, path or glob.` : '';
          return ok(`${header}\n${matches.join('\n')}${more}${tail}`);
        },
      );
    },
  });
}

interface Candidate {
  abs: string;
  relToStart: string;
  relToFolder: string;
}

async function* filesUnder(ctx: ToolContext, start: ResolvedPath, isDir: boolean, maxEntries: number, stats: WalkStats): AsyncGenerator<Candidate> {
  const folder = ctx.roots.folderOf(start.abs) ?? ctx.roots.primary;
  if (!isDir) {
    const rel = toPosix(path.relative(folder.path, start.abs));
    yield { abs: start.abs, relToStart: path.basename(start.abs), relToFolder: rel };
    return;
  }
  const startPrefix = toPosix(path.relative(folder.path, start.abs));
  for await (const file of walkFiles({ fs: ctx.fs, folderRoot: folder.path, start: start.abs, maxEntries, signal: ctx.signal }, stats)) {
    const relToStart = startPrefix === '' ? file.rel : file.rel.slice(startPrefix.length + 1);
    yield { abs: file.abs, relToStart, relToFolder: file.rel };
  }
}

/** A glob without "/" ("*.ts") matches file names at any depth; one with "/" matches the relative path. */
function globMatcher(glob: string): (rel: string) => boolean {
  const normalized = glob.replace(/\\/g, '/').replace(/^\.\//, '');
  const match = picomatch(normalized, { dot: true });
  if (normalized.includes('/')) return match;
  return (rel) => match(rel.slice(rel.lastIndexOf('/') + 1));
}

function tooSlow(pattern: string, deadlineMs: number, files: number): string {
  return (
    `Search stopped: the pattern /${pattern}/ is too slow to match (over ${deadlineMs / 1000} s on part of ${plural(files, 'file')}); ` +
    `nested or overlapping repetition such as (a+)+ or (.*)*x makes the regex engine backtrack endlessly. ` +
    `Search for a plain literal part of what you want, or simplify the pattern (no quantifier inside a repeated group).`
  );
}

function clip(line: string): string {
  return line.length > MAX_LINE_SHOWN ? line.slice(0, MAX_LINE_SHOWN) + '…' : line;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
