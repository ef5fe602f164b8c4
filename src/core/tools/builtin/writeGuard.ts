// The write guard: weak models rewrite whole files lazily ("// ... rest of the code unchanged ...") or send a
// fragment to write_file, and writing that would silently delete the code they left out. Such writes and edits
// are refused with an error the model can act on; the file is not touched.
import { findPlaceholder } from './omissionPlaceholders';

/** An existing file needs at least this many non-blank lines before a shrink counts as "dropping most of it". */
const MIN_LINES_FOR_SHRINK_CHECK = 20;
/** write_file that keeps fewer than this share of an existing file's lines is taken for a fragment. */
const SHRINK_RATIO = 0.5;

function nonBlankLines(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) if (line.trim() !== '') n++;
  return n;
}

function quote(line: string): string {
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

/** Why new text holding a placeholder is refused, or undefined when it holds none the file did not have. */
export function placeholderRefusal(tool: 'write_file' | 'edit_file', rel: string, newText: string, fileText: string | undefined): string | undefined {
  const found = findPlaceholder(newText, fileText, rel);
  if (!found) return undefined;
  const field = tool === 'write_file' ? 'content' : 'new_text';
  const fix =
    tool === 'write_file'
      ? `To change part of a file, use edit_file with old_text copied exactly from read_file and the complete replacement in new_text. To rewrite the file, send its whole content with nothing left out.`
      : `Put the complete replacement in new_text, every line written out; keep old_text small so new_text stays short, or make several smaller edits.`;
  return (
    `Not applied: line ${found.line} of ${field} is "${quote(found.text)}", a placeholder for code that was left out. ` +
    `Writing it would delete that code from ${rel}, so ${rel} was not changed. ${fix} ` +
    `(If the comment really belongs in the file, word it so it does not read as a placeholder.)`
  );
}

/**
 * Remembers write_file calls refused for shrinking a file, so that the same call sent again (the model insists,
 * after being told what it would delete) goes through. Anything else is refused once more.
 */
export class ShrinkGuard {
  private readonly refused = new Set<string>();

  /** Why this rewrite is refused, or undefined to let it through. */
  check(rel: string, before: string | undefined, after: string): string | undefined {
    if (before === undefined) return undefined;
    const oldLines = nonBlankLines(before);
    const newLines = nonBlankLines(after);
    if (oldLines < MIN_LINES_FOR_SHRINK_CHECK || newLines >= oldLines * SHRINK_RATIO) return undefined;
    const key = `${rel}\0${after}`;
    if (this.refused.has(key)) return undefined;
    this.refused.add(key);
    return (
      `Not applied: ${rel} has ${oldLines} lines of code and this content has ${newLines}, so write_file would delete most of the file; ${rel} was not changed. ` +
      `To change or add a few lines, use edit_file (old_text copied exactly from read_file, new_text the replacement). ` +
      `If you really mean to replace the whole file with this shorter content, call write_file again with exactly the same content.`
    );
  }

  /** The confirmed rewrite was written: a later identical one is judged afresh. */
  written(rel: string, after: string): void {
    this.refused.delete(`${rel}\0${after}`);
  }
}
