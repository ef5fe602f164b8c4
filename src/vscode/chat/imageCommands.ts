// "Attach Image to Chat" in the explorer (and the palette): the file goes to the panel, which shrinks it and shows
// it as a chip; and the panel learns the size to shrink to from `localharness.images.maxDimension`.
import * as vscode from 'vscode';
import { imageFromBytes, dataUrl } from '../../core/images/imagePart';
import type { EditorSettings } from '../settings/editorSettings';
import type { ChatViewProvider } from './chatViewProvider';
import type { Logger } from '../../editor/log/logger';

/** Larger files are refused before the panel has to decode them. */
const MAX_ATTACHED_IMAGE_BYTES = 8 * 1024 * 1024;

export function registerImageCommands(deps: { chatView: ChatViewProvider; settings: EditorSettings; log: Logger }): vscode.Disposable[] {
  const { chatView, settings } = deps;
  const sync = () => chatView.setImageOptions(settings.settings().settings.images.maxDimension);
  sync();
  const off = settings.onDidChange(sync);
  const attach = async (uri?: unknown) => {
    const target = uri instanceof vscode.Uri ? uri : (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { Images: ['png', 'jpg', 'jpeg', 'webp', 'gif'] } }))?.[0];
    if (!target) return;
    const stat = await vscode.workspace.fs.stat(target);
    const name = target.path.split('/').pop() ?? 'image';
    if (stat.size > MAX_ATTACHED_IMAGE_BYTES) {
      void vscode.window.showWarningMessage(`${name} is larger than 8 MB; attach a smaller copy.`);
      return;
    }
    const made = imageFromBytes(await vscode.workspace.fs.readFile(target), name);
    if (!made.ok) {
      void vscode.window.showWarningMessage(made.message);
      return;
    }
    await vscode.commands.executeCommand('localharness.chat.focus');
    chatView.addImage({ name, dataUrl: dataUrl(made.image) });
  };
  const logged = (uri?: unknown) =>
    attach(uri).catch((err: unknown) => {
      const why = err instanceof Error ? err.message : String(err);
      deps.log.warn(`attach image: ${why}`);
      void vscode.window.showErrorMessage(`Could not attach the image: ${why}`);
    });
  return [vscode.commands.registerCommand('localharness.attachImage', logged), { dispose: off }];
}
