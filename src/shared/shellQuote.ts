// One word for a POSIX shell: left bare when it has only characters no shell treats specially, otherwise in
// single quotes (inside which nothing is special; a quote itself is closed, escaped and reopened). Read right by
// bash, zsh and fish too.
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
