// load_skill: the body of a skill (SKILL.md without its front matter) and the list of its files, or one of those
// files. Read-only. The skills are looked up when called, so a skill added during the chat is found.
import { z } from 'zod';
import { defineTool, fail, ok } from '../tools/tool';
import { errorMessage } from '../../shared/format';
import { discoverSkills, readSkill } from './skillFiles';

export const LOAD_SKILL = 'load_skill';

// Short on purpose: this definition is sent with every request once a skill exists.
const schema = z.object({
  name: z.string(),
  file: z.string().optional().describe('one of its files instead'),
});

export interface LoadSkillOptions {
  /** The user's skills folder (absolute). */
  userFolder?: string;
}

export function createLoadSkillTool(options: LoadSkillOptions = {}) {
  return defineTool({
    name: LOAD_SKILL,
    description: 'Load a skill by name: its instructions and file list.',
    schema,
    risk: 'read',
    describeForApproval: (args) => ({ title: `Load skill ${args.name}`, detail: `Read the skill ${args.name}${args.file ? ` (file ${args.file})` : ''}` }),
    async invoke(args, ctx) {
      const sources = { folders: ctx.roots.folders, ...(options.userFolder && { userFolder: options.userFolder }) };
      const skills = await discoverSkills(ctx.fs, sources, ctx.signal);
      const skill = skills.find((s) => s.name === args.name) ?? skills.find((s) => s.name.toLowerCase() === args.name.trim().toLowerCase());
      if (!skill) return fail(`No skill named "${args.name}". Skills: ${skills.map((s) => s.name).join(', ') || '(none)'}.`);
      try {
        return ok(await readSkill(ctx.fs, skill, args.file));
      } catch (err) {
        return fail(`Error: ${errorMessage(err)}`);
      }
    },
  });
}
