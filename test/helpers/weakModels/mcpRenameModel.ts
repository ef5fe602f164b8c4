// The rename task with whatever tools the request offers: the built-in move_file / read_file / list_directory
// when they are there, else a tool whose name ends like one of them (the filesystem MCP server's
// `<server>__move_file`, `__read_text_file`, …, which want paths it allows: absolute ones under the
// workspace the system prompt names), else `tool_search` when offered, else it gives up in text. With
// `missing: 'complain'` it never thinks of tool_search: it names the tool it lacks and stops ("I can't do this:
// none of the offered tools provides `move_file`."). Weak: its very first tool call carries an extra argument no
// schema has. A pure function of the request.
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { pad, readRenameRequest } from './renameState';
import { FORGOT_TEXT, FailureLog, nextRenameAction, type ModelFn } from './renameTaskModel';
import type { OfferedTool, RequestView } from './requestView';

type Need = 'list' | 'read' | 'move';

const BUILTIN: Record<Need, string> = { list: 'list_directory', read: 'read_file', move: 'move_file' };
const SUFFIXES: Record<Need, string[]> = { list: ['list_directory'], read: ['read_text_file', 'read_file'], move: ['move_file'] };
const SEARCH_QUERY: Record<Need, string> = { list: 'list directory', read: 'read file', move: 'move file' };

export const GIVE_UP_TEXT = 'I cannot find a tool for this, so I cannot finish the task.';

/** The tool a weak model would use for `need` among those offered. */
export function pickTool(tools: readonly OfferedTool[], need: Need): string | undefined {
  const names = tools.map((t) => t.name);
  if (names.includes(BUILTIN[need])) return BUILTIN[need];
  for (const suffix of SUFFIXES[need]) {
    const found = names.find((n) => n.endsWith(suffix));
    if (found) return found;
  }
  return undefined;
}

/** What a model that never thinks of tool_search says when the tool it wants is not offered. */
export function missingToolText(tool: string): string {
  return `I can't do this: none of the offered tools provides \`${tool}\`.`;
}

export function mcpRenameModel(options: { trustsTrimmed?: boolean; missing?: 'search' | 'complain' } = {}): ModelFn {
  const log = new FailureLog();
  const fn = (request: ChatBody): ScriptedReply => {
    const state = readRenameRequest(request);
    log.fromState(state);
    const view = state.view;
    const action = nextRenameAction(state, options.trustsTrimmed ?? false);
    if (action.kind === 'forgot') {
      log.always(`forgot the task (${view.messages.length} messages sent)`);
      return { text: FORGOT_TEXT };
    }
    if (action.kind === 'complete') {
      const summary = `Renamed ${action.done.length} notes after their kind.`;
      return view.tools.some((t) => t.name === 'task_completion') ? call(view, 'task_completion', { result: summary }) : { text: summary };
    }
    const need: Need = action.kind;
    const tool = pickTool(view.tools, need);
    if (!tool) {
      if (options.missing === 'complain') return { text: missingToolText(BUILTIN[need]) };
      const query = SEARCH_QUERY[need];
      const searched = view.results.some((r) => r.call?.name === 'tool_search' && r.call.args.query === query);
      if (view.tools.some((t) => t.name === 'tool_search') && !searched) return call(view, 'tool_search', { query });
      log.always(`no tool to ${query} among: ${view.tools.map((t) => t.name).join(', ') || '(none)'}`);
      return { text: GIVE_UP_TEXT };
    }
    // MCP filesystem tools check paths against the folders they allow: give them absolute ones.
    const root = tool === BUILTIN[need] ? undefined : workspaceOf(view);
    const at = (name: string) => (root ? `${root}/${name}` : name);
    if (action.kind === 'list') return call(view, tool, { path: root ?? '.' });
    const note = `note-${pad(action.note)}.txt`;
    if (action.kind === 'read') return call(view, tool, { path: at(note) });
    return call(view, tool, { source: at(note), destination: at(`${action.to}-${pad(action.note)}.txt`) });
  };
  return Object.assign(fn, { failures: log.failures });
}

/** The workspace folder the system prompt names ("… Workspace: /tmp/x/ws."). */
function workspaceOf(view: RequestView): string | undefined {
  const system = view.messages.find((m) => m.role === 'system')?.content ?? '';
  return /Workspace: (\/\S*?)\.?$/m.exec(system)?.[1];
}

function call(view: RequestView, name: string, args: Record<string, unknown>): ScriptedReply {
  const first = !view.messages.some((m) => m.calls.length > 0);
  return { toolCalls: [{ name, arguments: first ? { ...args, recursive: true } : args }] };
}
