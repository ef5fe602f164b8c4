// The built-in workspace tools, and one call that registers them.
import type { ToolRegistry } from '../registry';
import type { Tool } from '../tool';
import { createEditFileTool } from './editFile';
import { createListDirectoryTool, type ListDirectoryOptions } from './listDirectory';
import { createAskQuestionTool, createTaskCompletionTool } from './loopBreaking';
import { createMoveFileTool } from './moveFile';
import { createReadFileTool, type ReadFileOptions } from './readFile';
import { createRunCommandTool, type RunCommandOptions } from './runCommandTool';
import { createSearchFilesTool, type SearchFilesOptions } from './searchFiles';
import { createTodoReadTool, createTodoWriteTool } from './todos';
import { createWriteFileTool } from './writeFile';

export const BUILTIN_TOOL_NAMES = [
  'list_directory',
  'read_file',
  'search_files',
  'write_file',
  'edit_file',
  'move_file',
  'run_command',
  'todo_write',
  'todo_read',
  'task_completion',
  'ask_question',
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export interface BuiltinToolOptions {
  listDirectory?: ListDirectoryOptions;
  readFile?: ReadFileOptions;
  searchFiles?: SearchFilesOptions;
  runCommand?: RunCommandOptions;
  /** Leave some tools out (e.g. the loop-breaking ones for hosts that end turns differently). */
  exclude?: readonly BuiltinToolName[];
}

/** Fresh instances of every built-in tool, in a stable order (the order the model sees them). */
export function createBuiltinTools(options: BuiltinToolOptions = {}): Tool[] {
  const all: Record<BuiltinToolName, Tool> = {
    list_directory: createListDirectoryTool(options.listDirectory),
    read_file: createReadFileTool(options.readFile),
    search_files: createSearchFilesTool(options.searchFiles),
    write_file: createWriteFileTool(),
    edit_file: createEditFileTool(),
    move_file: createMoveFileTool(),
    run_command: createRunCommandTool(options.runCommand),
    todo_write: createTodoWriteTool(),
    todo_read: createTodoReadTool(),
    task_completion: createTaskCompletionTool(),
    ask_question: createAskQuestionTool(),
  };
  const excluded = new Set(options.exclude ?? []);
  return BUILTIN_TOOL_NAMES.filter((name) => !excluded.has(name)).map((name) => all[name]);
}

export function registerBuiltinTools(registry: ToolRegistry, options: BuiltinToolOptions = {}): Tool[] {
  const tools = createBuiltinTools(options);
  for (const tool of tools) registry.register(tool);
  return tools;
}
