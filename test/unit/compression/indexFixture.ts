// A session that reads long feature modules with read_file (test/helpers/knowledge/featureModules.ts), for the
// compression-by-summaries tests: eight functions (72 lines, ~1,500 tokens) per module.
import type { ChatMessage } from '../../../src/core/messages';
import * as modules from '../../helpers/knowledge/featureModules';
import type { MemorySummaries } from '../../helpers/knowledge/memorySummaries';

export const FUNCTIONS_PER_FILE = 8;
export const moduleName = modules.moduleName;
export const moduleText = (n: number) => modules.moduleText(n, FUNCTIONS_PER_FILE);
export const chunksOf = (n: number) => modules.chunksOf(n, FUNCTIONS_PER_FILE);
export const fileSummaryOf = (n: number) => modules.fileSummaryOf(n, FUNCTIONS_PER_FILE);

export function indexedWorkspace(count: number, indexed: readonly number[]): Promise<{ root: string; summaries: MemorySummaries }> {
  return modules.featureWorkspace({ count, functions: FUNCTIONS_PER_FILE, indexed });
}

/** The result read_file gives for the whole module (its header, then the text), or for a range of it. */
export function readResult(n: number, range?: { start: number; end: number }): string {
  const lines = moduleText(n).split('\n').slice(0, -1);
  if (!range) return `${moduleName(n)} (${lines.length} lines):\n${lines.join('\n')}`;
  return `${moduleName(n)} lines ${range.start}-${range.end} of ${lines.length}:\n${lines.slice(range.start - 1, range.end).join('\n')}`;
}

/** One request, then a read_file round per module (the path as `pathOf` writes it). */
export function readingSession(modules: readonly number[], options: { pathOf?: (n: number) => string; ranges?: Record<number, { start: number; end: number }> } = {}): ChatMessage[] {
  const history: ChatMessage[] = [{ role: 'user', content: 'Read the feature modules and tell me which stage clips values.' }];
  modules.forEach((n, i) => {
    const id = `call_${i + 1}`;
    const range = options.ranges?.[n];
    const args = { path: options.pathOf?.(n) ?? moduleName(n), ...(range && { start_line: range.start, end_line: range.end }) };
    history.push({ role: 'assistant', content: '', toolCalls: [{ id, name: 'read_file', arguments: JSON.stringify(args) }] });
    history.push({ role: 'tool', content: readResult(n, range), toolCallId: id, toolName: 'read_file' });
  });
  return history;
}
