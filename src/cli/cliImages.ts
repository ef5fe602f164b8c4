// `--image FILE`: read each file, check it is an image we send and small enough, and that the model sees.
// The CLI has no image decoder (no native dependencies), so it cannot shrink a picture: larger files are refused
// with the limit named, where the editor's panel would downscale them.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { imageFromBytes, type ImagePart } from '../core/images/imagePart';
import { cannotSeeMessage, visionFor, type VisionSetting } from '../core/images/vision';
import type { ChatProvider } from '../core/provider';
import { formatSize } from '../shared/format';

export const MAX_CLI_IMAGE_BYTES = 4 * 1024 * 1024;

export type CliImages = { ok: true; images: ImagePart[]; vision: boolean } | { ok: false; message: string };

export async function cliImages(
  files: readonly string[],
  cwd: string,
  provider: Pick<ChatProvider, 'modelInfo'>,
  model: string,
  setting: VisionSetting,
  signal: AbortSignal,
): Promise<CliImages> {
  const images: ImagePart[] = [];
  for (const file of files) {
    const abs = path.resolve(cwd, file);
    const info = await stat(abs).catch(() => undefined);
    if (!info?.isFile()) return { ok: false, message: `--image ${file}: no such file` };
    if (info.size > MAX_CLI_IMAGE_BYTES) {
      return { ok: false, message: `--image ${file} is ${formatSize(info.size)}; the CLI sends images up to ${formatSize(MAX_CLI_IMAGE_BYTES)} (it cannot shrink them): attach a smaller copy` };
    }
    const made = imageFromBytes(new Uint8Array(await readFile(abs)), path.basename(file));
    if (!made.ok) return { ok: false, message: `--image ${made.message}` };
    images.push(made.image);
  }
  // Asked even without --image: read_file of an image then gives a model that sees the picture.
  const vision = await visionFor(provider, model, setting, signal);
  if (images.length && !vision) return { ok: false, message: cannotSeeMessage(model, '--vision') };
  return { ok: true, images, vision };
}
