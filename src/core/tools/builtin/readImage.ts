// read_file on an image: a model that sees gets the picture itself (on the tool result), any other model a note
// saying what the file is, instead of "binary file".
import { imageFromBytes, type ImagePart } from '../../images/imagePart';
import type { ToolContext, ToolResult } from '../tool';
import { formatSize, type ResolvedPath } from './common';

/** Larger images are refused: core has no decoder to shrink them, and a server rejects or chokes on them. */
export const MAX_TOOL_IMAGE_BYTES = 4 * 1024 * 1024;
const IMAGE_NAME = /\.(png|jpe?g|webp|gif)$/i;

/** The result for an image file, or undefined when the path is no image (read it as text). */
export async function readImageFile(ctx: ToolContext, p: ResolvedPath): Promise<ToolResult | undefined> {
  if (!IMAGE_NAME.test(p.rel)) return undefined;
  const linkStat = await ctx.fs.lstat(p.abs);
  const stat = linkStat?.kind === 'symlink' ? await ctx.fs.lstat(await ctx.fs.realpath(p.abs)) : linkStat;
  if (!stat || stat.kind !== 'file') return undefined;
  if (stat.size > MAX_TOOL_IMAGE_BYTES) {
    return { ok: false, content: `${p.rel} is an image of ${formatSize(stat.size)}; images over ${formatSize(MAX_TOOL_IMAGE_BYTES)} are not read. Ask the user to attach a smaller copy.` };
  }
  const made = imageFromBytes(await ctx.fs.readBytes(p.abs), p.rel);
  if (!made.ok) return undefined;
  const image: ImagePart = made.image;
  ctx.tracker.fileRead(p.rel);
  const what = `${p.rel} is a ${image.mimeType.slice(6).toUpperCase()} image${image.width ? ` of ${image.width}×${image.height} pixels` : ''} (${formatSize(stat.size)})`;
  if (!ctx.vision) return { ok: true, content: `${what}. The current model cannot see images, so only this note is returned; describe what you need from it to the user instead.` };
  return { ok: true, content: `${what}; the image follows.`, images: [image] };
}
