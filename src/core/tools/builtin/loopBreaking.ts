// task_completion / ask_question: the model ends the turn explicitly, with a summary or a question for the user.
import { z } from 'zod';
import { defineTool, fail, ok } from '../tool';

export function createTaskCompletionTool() {
  return defineTool({
    name: 'task_completion',
    description: 'Finish the task and give the user a summary of what you did.',
    schema: z.object({ result: z.string() }),
    risk: 'read',
    loopBreaking: true,
    describeForApproval: (args) => ({ title: 'Finish the task', detail: args.result }),
    async invoke(args) {
      if (args.result.trim() === '') return fail('result is empty. Summarize what you did for the user.');
      return ok(args.result);
    },
  });
}

export function createAskQuestionTool() {
  return defineTool({
    name: 'ask_question',
    description: 'Ask the user a question when you cannot continue without their answer.',
    schema: z.object({ question: z.string() }),
    risk: 'read',
    loopBreaking: true,
    describeForApproval: (args) => ({ title: 'Ask the user', detail: args.question }),
    async invoke(args) {
      if (args.question.trim() === '') return fail('question is empty. Write the question for the user.');
      return ok(args.question);
    },
  });
}
