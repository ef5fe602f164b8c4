// A session's skills: looked up at the start of each turn (like the rules files), listed in the system prompt by
// name and description, and load_skill joins the tools once there is a skill to load (a session without skills
// offers nothing more, byte for byte).
import type { FileSystemPort } from '../ports';
import type { ToolRegistry } from '../tools/registry';
import type { WorkspaceFolder } from '../workspace/workspaceRoots';
import { createLoadSkillTool, LOAD_SKILL } from './loadSkillTool';
import { discoverSkills, renderSkillList } from './skillFiles';

export interface SessionSkillsOptions {
  /** The user's own skills folder (absolute), read wherever the workspace is. */
  userFolder?: string;
}

export class SessionSkills {
  /** The prompt's list; empty when there are no skills. */
  list = '';

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: SessionSkillsOptions,
  ) {}

  async refresh(fs: FileSystemPort, folders: readonly WorkspaceFolder[], signal: AbortSignal): Promise<void> {
    const sources = { folders, ...(this.options.userFolder && { userFolder: this.options.userFolder }) };
    const skills = await discoverSkills(fs, sources, signal).catch(() => []);
    this.list = renderSkillList(skills);
    if (skills.length > 0 && !this.registry.get(LOAD_SKILL)) {
      this.registry.register(createLoadSkillTool(this.options.userFolder ? { userFolder: this.options.userFolder } : {}));
    }
  }
}
