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
