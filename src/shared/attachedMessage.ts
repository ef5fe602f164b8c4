// How attached code travels inside a user message: the model reads fenced blocks with `path:start-end` headers
// before the question; the panel (live, restored, compressed marks) shows the question and compact chip labels.
// One format, written and read here, so the compact view can always be recovered from the stored message.

/** First line of a message that carries attached code; it names the number of blocks, so the reader knows where the user's text starts. */
export function attachedIntro(count: number): string {
  return `Code attached to this message (${count} block${count === 1 ? '' : 's'}, as it is in the editor now):`;
}
const INTRO = /^Code attached to this message \((\d{1,3}) blocks?, as it is in the editor now\):$/;
/** Starts the line of chip labels under a user message in the panel (words: not every editor font has emoji). */
export const CHIP_MARK = 'Attached:';

export interface ChipRef {
  path: string;
  startLine?: number | undefined;
  endLine?: number | undefined;
}

/** "src/a.ts:3-5", "src/a.ts:7" for one line, "src/a.ts" for the whole file. */
export function attachmentLabel(ref: ChipRef): string {
  if (ref.startLine === undefined) return ref.path;
  const end = ref.endLine ?? ref.startLine;
  return end === ref.startLine ? `${ref.path}:${ref.startLine}` : `${ref.path}:${ref.startLine}-${end}`;
}

export interface AttachedBlock {
  /** attachmentLabel() of what is shown (the lines actually included). */
  label: string;
  languageId?: string | undefined;
  text: string;
  /** Why the text is shorter than asked, or could not be read; goes on the header line. */
  note?: string | undefined;
}

const NOTE_SEPARATOR = ' \u2014 ';

/** The message the model gets: the intro, one fenced block per chip, then the user's own text. */
export function formatAttachedMessage(userText: string, blocks: readonly AttachedBlock[]): string {
  if (blocks.length === 0) return userText;
  const parts = [attachedIntro(blocks.length)];
  for (const block of blocks) {
    const fence = fenceFor(block.text);
    const body = block.text.endsWith('\n') ? block.text.slice(0, -1) : block.text;
    const lang = (block.languageId ?? '').replace(/[^\w+#.-]/g, '');
    parts.push('', block.note ? `${block.label}${NOTE_SEPARATOR}${block.note}` : block.label, `${fence}${lang}`, ...(body === '' ? [] : [body]), fence);
  }
  parts.push('', userText);
  return parts.join('\n');
}

/** The user's text and the chip labels of a message formatAttachedMessage wrote; undefined for any other text. */
export function splitAttachedMessage(message: string): { text: string; labels: string[] } | undefined {
  if (!message.startsWith('Code attached to this message (')) return undefined;
  const lines = message.split('\n');
  const count = Number(INTRO.exec(lines[0]!)?.[1] ?? 0);
  if (count === 0) return undefined;
  const labels: string[] = [];
  let i = 1;
  while (labels.length < count) {
    const header = lines[i + 1];
    const open = lines[i + 2];
    const fence = open === undefined ? undefined : /^(`{3,})[^`]*$/.exec(open)?.[1];
    if (lines[i] !== '' || !header || fence === undefined) return undefined;
    let close = i + 3;
    while (close < lines.length && lines[close] !== fence) close++;
    if (close >= lines.length) return undefined;
    const cut = header.indexOf(NOTE_SEPARATOR);
    labels.push(cut >= 0 ? header.slice(0, cut) : header);
    i = close + 1;
  }
  if (lines[i] !== '') return undefined;
  return { text: lines.slice(i + 1).join('\n'), labels };
}

/**
 * What the panel shows for a user message: the question, then the labels of what was attached on one line, never the
 * attached code. The labels come from the message's attachments; a message stored before attachments were data
 * carries its code in the text, which is read back here (the only place that does).
 */
export function userMessageText(content: string, labels?: readonly string[]): string {
  if (labels?.length) return `${content}\n${CHIP_MARK} ${labels.join(' \u00b7 ')}`;
  const split = splitAttachedMessage(content);
  return split ? `${split.text}\n${CHIP_MARK} ${split.labels.join(' \u00b7 ')}` : content;
}

/** A fence longer than any run of backticks in the text, so the code cannot close it early. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}
