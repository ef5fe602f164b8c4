// Whether a command line starts with an allowed prefix: shared by approval rules and the sandbox's network
// exceptions, so both read "npm install" the same way.
export function commandHasPrefix(command: string, prefix: string): boolean {
  const c = command.trim().replace(/\s+/g, ' ');
  const p = prefix.trim().replace(/\s+/g, ' ');
  if (p === '') return false;
  if (c !== p && !c.startsWith(p + ' ')) return false;
  // A prefix rule never covers chained or redirected commands.
  return !/[;&|`$<>\n]|\$\(/.test(c.slice(p.length));
}
