// The built-in tool definitions are a public interface: exact names and parameters, risks, and a token budget
// small enough that the system prompt plus every definition fits a 4k-window model.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_TOOL_NAMES, createBuiltinTools, registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { estimateToolDefinitionTokens } from '../../../src/core/tokens';

function registry(): ToolRegistry {
  const r = new ToolRegistry();
  registerBuiltinTools(r);
  return r;
}

describe('built-in tool definitions', () => {
  it('stay under 1,400 estimated tokens in total', () => {
    const tokens = estimateToolDefinitionTokens(registry().definitions());
    console.log(`built-in tool definitions: ${tokens} estimated tokens (${BUILTIN_TOOL_NAMES.length} tools)`);
    assert.ok(tokens < 1400, `${tokens} tokens`);
  });

  it('have the exact public names, parameters and risks', () => {
    const defs = registry().definitions();
    const shape = Object.fromEntries(
      defs.map((d) => {
        const props = Object.keys((d.parameters.properties ?? {}) as object);
        const required = (d.parameters.required ?? []) as string[];
        return [d.name, props.map((p) => (required.includes(p) ? p : `${p}?`)).join(',')];
      }),
    );
    assert.deepEqual(shape, {
      list_directory: 'path',
      read_file: 'path,start_line?,end_line?',
      search_files: 'pattern,path?,glob?',
      write_file: 'path,content',
      edit_file: 'path,old_text,new_text',
      move_file: 'source,destination',
      run_command: 'command,cwd?,timeout_ms?',
      todo_write: 'todos',
      todo_read: '',
      task_completion: 'result',
      ask_question: 'question',
    });
    const risks = Object.fromEntries(createBuiltinTools().map((t) => [t.name, `${t.risk}${t.loopBreaking ? '+breaks' : ''}`]));
    assert.deepEqual(risks, {
      list_directory: 'read',
      read_file: 'read',
      search_files: 'read',
      write_file: 'write',
      edit_file: 'write',
      move_file: 'write',
      run_command: 'execute',
      todo_write: 'read',
      todo_read: 'read',
      task_completion: 'read+breaks',
      ask_question: 'read+breaks',
    });
  });

  it('have one-sentence descriptions', () => {
    for (const d of registry().definitions()) {
      assert.ok(d.description.length <= 100, `${d.name}: ${d.description.length} chars`);
      assert.equal(d.description.split(/\.\s/).length, 1, `${d.name} has more than one sentence`);
    }
  });

  it('read-only workspaces get only the read tools', () => {
    const names = registry().definitions(['read']).map((d) => d.name);
    assert.deepEqual(names, ['list_directory', 'read_file', 'search_files', 'todo_write', 'todo_read', 'task_completion', 'ask_question']);
  });

  it('can leave tools out', () => {
    const names = createBuiltinTools({ exclude: ['task_completion', 'ask_question'] }).map((t) => t.name);
    assert.equal(names.includes('task_completion'), false);
    assert.equal(names.length, BUILTIN_TOOL_NAMES.length - 2);
  });
});
