// Is this text really a binary file read as text? Indexing such a file would only fill the index with noise.

/** Enough to judge: binary formats show themselves in their first few kilobytes. */
const SAMPLE_CHARS = 8192;
/** Control characters (other than tabs, line and page breaks, escape) beyond this share mean binary. */
const MAX_CONTROL_RATIO = 0.1;
/** U+FFFD is what invalid UTF-8 decodes to: a text file has a few at most. */
const MAX_REPLACEMENT_RATIO = 0.1;

/** True for NUL bytes or a high share of control characters / undecodable bytes. */
export function looksBinary(text: string): boolean {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  if (sample.length === 0) return false;
  let control = 0;
  let replacement = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code === 0) return true;
    if (code === 0xfffd) replacement++;
    // Tab, LF, VT, FF, CR and ESC (coloured logs) are at home in text files.
    else if ((code < 32 && code !== 9 && code !== 10 && code !== 11 && code !== 12 && code !== 13 && code !== 27) || code === 127) control++;
  }
  return control / sample.length > MAX_CONTROL_RATIO || replacement / sample.length > MAX_REPLACEMENT_RATIO;
}
