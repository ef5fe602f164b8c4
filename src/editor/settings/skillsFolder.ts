// The user's skills folder, on its own: the chat's skill list needs it at activation, without the session builder.
import { homedir } from 'node:os';
import path from 'node:path';
import type { HarnessSettings } from './harnessSettings';

/** `localharness.skills.userFolder` (with `~`), or ~/.localharness/skills. */
export function userSkillsFolder(settings: Pick<HarnessSettings, 'skillsUserFolder'>): string {
  const folder = settings.skillsUserFolder;
  if (!folder) return path.join(homedir(), '.localharness', 'skills');
  return folder === '~' || folder.startsWith('~/') ? path.join(homedir(), folder.slice(1)) : path.resolve(folder);
}
