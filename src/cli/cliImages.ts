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
    if (info.size > MAX_CLI_IMAGE_BYTES) return { ok: false, message: `--image ${tooLarge(file, info.size)}` };
    const made = imageFromBytes(new Uint8Array(await readFile(abs)), path.basename(file));
    if (!made.ok) return { ok: false, message: `--image ${made.message}` };
    images.push(made.image);
  }
  return imagesForModel(images, provider, model, setting, signal);
}

/** Why an image of `size` bytes is refused (the limit named), after the name of it. */
export function tooLarge(name: string, size: number): string {
  return `${name} is ${formatSize(size)}; images up to ${formatSize(MAX_CLI_IMAGE_BYTES)} are sent (the CLI cannot shrink them): attach a smaller copy`;
}

/**
 * Whether the model sees, and the images when it does; images for a model that does not see are refused with the
 * note naming `--vision`. Shared by `run --image` and the ACP agent's image blocks.
 */
export async function imagesForModel(
  images: ImagePart[],
  provider: Pick<ChatProvider, 'modelInfo'>,
  model: string,
  setting: VisionSetting,
  signal: AbortSignal,
): Promise<CliImages> {
  // Asked even without images: read_file of an image then gives a model that sees the picture.
  const vision = await visionFor(provider, model, setting, signal);
  if (images.length && !vision) return { ok: false, message: cannotSeeMessage(model, '--vision') };
  return { ok: true, images, vision };
}
