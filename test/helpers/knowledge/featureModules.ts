// Long source files for the compression-by-summaries tests and bench: "feature modules", each a run of
// functions of LINES_PER_FUNCTION lines, in a real temp folder, with the summaries an index would hold for them.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemorySummaries } from './memorySummaries';

export const LINES_PER_FUNCTION = 9;

export function moduleName(n: number): string {
  return `src/feature${n}.ts`;
}

export function functionName(n: number, f: number): string {
  return `step${n}_${f}`;
}

/** `functions` functions of LINES_PER_FUNCTION lines each: ~620 characters per function. */
export function moduleText(n: number, functions: number): string {
  const lines: string[] = [];
  for (let f = 0; f < functions; f++) {
    lines.push(
      `export function ${functionName(n, f)}(input: number[], options: { scale: number; offset: number }): number[] {`,
      `  // Scales every value of feature ${n}, stage ${f}, and shifts it by the configured offset.`,
      `  const scaled = input.map((value) => value * options.scale + options.offset + ${f});`,
      `  const clipped = scaled.map((value) => Math.max(-1000, Math.min(1000, value)));`,
      `  if (clipped.some((value) => Number.isNaN(value))) throw new Error('feature ${n}: NaN in stage ${f}');`,
      `  const total = clipped.reduce((sum, value) => sum + value, 0);`,
      `  const mean = clipped.length ? total / clipped.length : 0;`,
      `  return clipped.map((value) => value - mean * ${(f + 1) / 10});`,
      `}`,
    );
  }
  return lines.join('\n') + '\n';
}

export function chunksOf(n: number, functions: number): Array<{ startLine: number; endLine: number; name: string; summary: string }> {
  return Array.from({ length: functions }, (_, f) => ({
    startLine: f * LINES_PER_FUNCTION + 1,
    endLine: (f + 1) * LINES_PER_FUNCTION,
    name: functionName(n, f),
    summary: `scales, clips and centres stage ${f} of feature ${n}`,
  }));
}

export function fileSummaryOf(n: number, functions: number): string {
  return `Feature ${n}'s numeric pipeline: ${functions} stages that scale, clip and centre arrays of numbers.`;
}

/** A folder with modules 1..count of `functions` functions each; the ones in `indexed` get summaries. */
export async function featureWorkspace(options: { count: number; functions: number; indexed: readonly number[]; root?: string }): Promise<{ root: string; summaries: MemorySummaries }> {
  const root = options.root ?? mkdtempSync(path.join(tmpdir(), 'lh-index-'));
  mkdirSync(path.join(root, 'src'), { recursive: true });
  for (let n = 1; n <= options.count; n++) writeFileSync(path.join(root, moduleName(n)), moduleText(n, options.functions));
  const summaries = new MemorySummaries(root);
  for (const n of options.indexed) await summaries.index(moduleName(n), fileSummaryOf(n, options.functions), chunksOf(n, options.functions));
  return { root, summaries };
}
