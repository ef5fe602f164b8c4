// Small shell helpers for running a command in a given directory of a shared terminal. Pure (unit-tested).
import * as path from 'node:path';

/** `cd` into the directory, quoted for the platform's default shell. */
export function cdCommand(dir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `cd "${dir.replace(/"/g, '""')}"`;
  return `cd '${dir.replace(/'/g, `'\\''`)}'`;
}

export function samePath(a: string, b: string, platform: NodeJS.Platform = process.platform): boolean {
  const norm = (p: string) => path.resolve(p).replace(/[\\/]+$/, '');
  return platform === 'win32' ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
}

/** The line sent to the terminal: the command itself, prefixed with a `cd` when the shell is elsewhere. */
export function terminalCommandLine(command: string, cwd: string, shellCwd: string | undefined, platform: NodeJS.Platform = process.platform): string {
  if (shellCwd !== undefined && samePath(shellCwd, cwd, platform)) return command;
  return `${cdCommand(cwd, platform)} && ${command}`;
}
