// The macOS sandbox-exec (Seatbelt) profile for a sandbox policy. Pure (unit-tested). The same rules as the
// Linux sandbox: read everything, write only the workspace folders and the private temporary folder, sensitive
// paths never (a missing one cannot be created either: the rule names the path, not a file), no network.
// In a profile the last matching rule wins, so the denials come after the allowances.
import type { SandboxPolicy } from '../../core/ports';

export function seatbeltProfile(policy: SandboxPolicy, tmp: string): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  const writable = [...policy.writable, tmp].map((p) => `(subpath ${quote(p)})`);
  // Terminals and the null device stay writable: shells and most tools need them.
  lines.push(`(allow file-write* ${writable.join(' ')} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`);
  if (policy.readOnly.length > 0) lines.push(`(deny file-write* ${policy.readOnly.map((p) => `(subpath ${quote(p.path)})`).join(' ')})`);
  if (!policy.network) lines.push('(deny network*)');
  return lines.join('\n') + '\n';
}

/** A string literal of the profile language: backslashes and quotes escaped. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
