// The macOS sandbox-exec (Seatbelt) profile for a sandbox policy. Pure (unit-tested). The same rules as the
// Linux sandbox where they apply: read everything, write only the workspace folders and the private temporary
// folder, sensitive paths never (a missing one cannot be created either: the rule names the path, not a file, and
// a glob name such as "*.code-workspace" is a pattern here, so no stand-ins are needed), no network, and no host
// unix socket even with the network (docker, tmux, ssh-agent, the editor) but the system's name resolver, which
// macOS reaches through one. io_uring and user namespaces do not exist there; the limits are Linux's (prlimit).
// In a profile the last matching rule wins, so the denials come after the allowances.
import type { SandboxPolicy } from '../../core/ports';

/** Glob-named sensitive files at the top of a workspace folder (protectedPaths.ts lists the literal ones). */
const TOP_LEVEL_GLOBS = ['[^/]*\\.code-workspace'];
/** macOS resolves names through mDNSResponder's socket: with the network on, DNS must keep working. */
const RESOLVER_SOCKET = '/private/var/run/mDNSResponder';

export function seatbeltProfile(policy: SandboxPolicy, tmp: string): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  const writable = [...policy.writable, tmp].map((p) => `(subpath ${quote(p)})`);
  // Terminals and the null device stay writable: shells and most tools need them.
  lines.push(`(allow file-write* ${writable.join(' ')} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`);
  if (policy.readOnly.length > 0) lines.push(`(deny file-write* ${policy.readOnly.map((p) => `(subpath ${quote(p.path)})`).join(' ')})`);
  if (!policy.network) lines.push('(deny network*)');
  else lines.push('(deny network-outbound (remote unix-socket))', `(allow network-outbound (remote unix-socket (path-literal ${quote(RESOLVER_SOCKET)})))`);
  const globs = policy.writable.flatMap((folder) => TOP_LEVEL_GLOBS.map((g) => `(regex ${regexLiteral(`^${escapeRegex(folder.replace(/\/+$/, ''))}/${g}$`)})`));
  if (globs.length > 0) lines.push(`(deny file-write* ${globs.join(' ')})`);
  return lines.join('\n') + '\n';
}

/** A string literal of the profile language: backslashes and quotes escaped. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A regex literal of the profile language (#"…"): only the quote needs escaping. */
function regexLiteral(pattern: string): string {
  return `#"${pattern.replace(/"/g, '\\"')}"`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
