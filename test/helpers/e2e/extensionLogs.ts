// Reads the logs code-server writes for the remote extension host (its own log and our "Local Harness" channel).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

function findFiles(dir: string, match: (name: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) findFiles(full, match, out);
    else if (match(name)) out.push(full);
  }
  return out;
}

/** Everything the extension wrote to its "Local Harness" log channel, across extension-host restarts. */
export function readExtensionLog(userDataDir: string): string {
  return findFiles(path.join(userDataDir, 'logs'), (name) => name === 'Local Harness.log')
    .sort()
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/** The remote extension host's own log (activation events, extension errors). */
export function readExtensionHostLog(userDataDir: string): string {
  return findFiles(path.join(userDataDir, 'logs'), (name) => name === 'remoteexthost.log' || name === 'exthost.log')
    .sort()
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/** Names of all log files, to say where to look when a test fails. */
export function listLogFiles(userDataDir: string): string[] {
  return findFiles(path.join(userDataDir, 'logs'), (name) => name.endsWith('.log'));
}

/**
 * Error entries (with their stack lines) in the extension host log that come from the given extension,
 * e.g. uncaught exceptions or API misuse VS Code reports against its files.
 */
export function extensionHostErrors(exthostLog: string, extensionId: string): string[] {
  const entries: string[] = [];
  let current: string[] | undefined;
  for (const line of exthostLog.split('\n')) {
    if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \[/.test(line)) {
      if (current) entries.push(current.join('\n'));
      current = [line];
    } else if (current) {
      current.push(line);
    }
  }
  if (current) entries.push(current.join('\n'));
  return entries.filter((entry) => /^\S+ \S+ \[error\]/.test(entry) && entry.includes(extensionId));
}
