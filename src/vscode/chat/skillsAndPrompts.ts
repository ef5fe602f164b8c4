// Skills and prompt files in the editor: "Local Harness: Show Skills" lists the skills and opens the chosen
// SKILL.md; the workspace's prompt files join the panel's slash commands, kept current by a file watcher.
import * as vscode from 'vscode';
import type { FileSystemPort } from '../../core/ports';
import { discoverSkills } from '../../core/skills/skillFiles';
import { discoverPromptFiles } from '../../core/promptFiles/promptFiles';
import { promptFileCommands } from '../../editor/agent/promptFileTurn';
import { userSkillsFolder } from '../../editor/settings/skillsFolder';
import type { Logger } from '../../editor/log/logger';
import { errorMessage } from '../../shared/format';
import { registerLoggedCommands } from '../common/loggedCommands';
import type { EditorSettings } from '../settings/editorSettings';
import { workspaceFolders } from '../workspaceInfo';
import type { McpOffers } from './chatViewProvider';

export const SHOW_SKILLS_COMMAND = 'localharness.showSkills';

export interface SkillsAndPromptsDeps {
  fs: FileSystemPort;
  settings: EditorSettings;
  chatView: { setPromptFiles(commands: McpOffers['prompts']): void };
  log: Logger;
}

export function registerSkillsAndPrompts(deps: SkillsAndPromptsDeps): vscode.Disposable[] {
  const publish = () =>
    discoverPromptFiles(deps.fs, workspaceFolders()).then(
      (prompts) => deps.chatView.setPromptFiles(promptFileCommands(prompts)),
      (err: unknown) => deps.log.warn(`prompt files: ${errorMessage(err)}`),
    );
  void publish();
  const watcher = vscode.workspace.createFileSystemWatcher('**/{.github/prompts/*.prompt.md,.localharness/prompts/*.md}');
  return [
    watcher,
    watcher.onDidCreate(publish),
    watcher.onDidChange(publish),
    watcher.onDidDelete(publish),
    vscode.workspace.onDidChangeWorkspaceFolders(publish),
    ...registerLoggedCommands({ [SHOW_SKILLS_COMMAND]: () => showSkills(deps) }, deps.log),
  ];
}

async function showSkills(deps: SkillsAndPromptsDeps): Promise<void> {
  const userFolder = userSkillsFolder(deps.settings.settings().settings);
  const skills = await discoverSkills(deps.fs, { folders: workspaceFolders(), userFolder });
  if (skills.length === 0) {
    void vscode.window.showInformationMessage(
      `Local Harness: no skills yet. A skill is a folder with a SKILL.md (front matter "name" and "description") in .agents/skills/ or .localharness/skills/ of the workspace, or in ${userFolder}.`,
    );
    return;
  }
  const picked = await vscode.window.showQuickPick(
    skills.map((skill) => ({ label: skill.name, description: skill.source === 'user' ? 'your skills' : skill.source, detail: skill.description, skill })),
    { title: 'Local Harness: Skills', placeHolder: 'The model sees these names and descriptions and loads a skill with load_skill. Choose one to open its SKILL.md', matchOnDetail: true },
  );
  if (picked) await vscode.window.showTextDocument(vscode.Uri.file(`${picked.skill.dir}/SKILL.md`));
}
