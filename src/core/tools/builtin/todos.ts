// todo_write / todo_read: the agent's plan, kept in the context tracker so it shows in the hot context.
import { z } from 'zod';
import type { Todo } from '../../workingContext/tracker';
import { defineTool, ok } from '../tool';

const todoSchema = z.object({
  text: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'done']),
});

export function renderTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return 'The todo list is empty.';
  const mark = { pending: ' ', in_progress: '~', done: 'x' } as const;
  const done = todos.filter((t) => t.status === 'done').length;
  return `Todos (${done}/${todos.length} done):\n` + todos.map((t, i) => `${i + 1}. [${mark[t.status]}] ${t.text}`).join('\n');
}

export function createTodoWriteTool() {
  return defineTool({
    name: 'todo_write',
    description: 'Replace your todo list for this task.',
    schema: z.object({ todos: z.array(todoSchema) }),
    risk: 'read',
    describeForApproval: (args) => ({ title: 'Update the todo list', detail: renderTodos(args.todos) }),
    async invoke(args, ctx) {
      ctx.tracker.setTodos(args.todos.map((t) => ({ text: t.text.trim(), status: t.status })));
      return ok(renderTodos(ctx.tracker.todos()));
    },
  });
}

export function createTodoReadTool() {
  return defineTool({
    name: 'todo_read',
    description: 'Show your todo list.',
    schema: z.object({}),
    risk: 'read',
    describeForApproval: () => ({ title: 'Read the todo list', detail: 'Read the todo list' }),
    async invoke(_args, ctx) {
      return ok(renderTodos(ctx.tracker.todos()));
    },
  });
}
