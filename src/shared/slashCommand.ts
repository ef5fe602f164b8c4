// Slash commands in the message box: `/server.prompt` (optionally followed by text) runs an MCP server's prompt.
// Parsing and the suggestion list's matching live here so the panel (suggesting) and the host (running) agree.
// Pure: no DOM, no vscode.

/** A prompt offered as a slash command. `command` is `server.prompt`, without the slash. */
export interface SlashCommandInfo {
  command: string;
  title?: string | undefined;
  description?: string | undefined;
}

/** `/name rest…` at the very start of a message; undefined for anything else (a path like `/etc/hosts` too). */
export function parseSlashCommand(text: string): { command: string; rest: string } | undefined {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trimEnd());
  if (!match) return undefined;
  return { command: match[1]!, rest: (match[2] ?? '').trim() };
}

/**
 * What the user is typing as a command: the text after the leading `/` while the caret is still in that first
 * word (so the list closes once they go on to type the rest). Undefined when no suggestion list should show.
 */
export function slashQuery(text: string, caret: number): string | undefined {
  if (!text.startsWith('/') || caret < 1) return undefined;
  const word = /^\/[^\s]*/.exec(text)![0];
  if (caret > word.length || word.includes('/', 1)) return undefined;
  return word.slice(1, caret);
}

/**
 * The commands matching `query`, best first: the whole command starting with it, then one of its words (split
 * at `.`, `-`, `_`), then anywhere in it. Case-insensitive; the list's own order breaks ties.
 */
export function matchSlashCommands<T extends SlashCommandInfo>(query: string, commands: readonly T[], max = 50): T[] {
  const q = query.toLowerCase();
  if (q === '') return commands.slice(0, max);
  const ranked: Array<{ rank: number; index: number; command: T }> = [];
  commands.forEach((command, index) => {
    const name = command.command.toLowerCase();
    const rank = name.startsWith(q) ? 0 : name.split(/[._-]/).some((w) => w.startsWith(q)) ? 1 : name.includes(q) ? 2 : -1;
    if (rank >= 0) ranked.push({ rank, index, command });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return ranked.slice(0, max).map((r) => r.command);
}

/** The message box's text once a suggestion is picked: the command replaces the typed word, the rest stays. */
export function applySlashCommand(text: string, command: string): { text: string; caret: number } {
  const word = /^\/[^\s]*/.exec(text)?.[0] ?? '';
  const after = text.slice(word.length).replace(/^[^\S\n]+/, '');
  const head = `/${command} `;
  return { text: head + after, caret: head.length };
}
