// How images count and what stands in for them once they leave the request.
import type { ImagePart } from './imagePart';

/**
 * Tokens an image costs, estimated: vision encoders of local models (Qwen-VL, Gemma, llava's successors) spend about
 * one token per 28×28 pixel patch; without dimensions a mid-sized screenshot's worth. The calibration against the
 * server's prompt counts corrects the rest, as it does for text.
 */
export function estimateImageTokens(image: Pick<ImagePart, 'width' | 'height'>): number {
  if (!image.width || !image.height) return 768;
  return Math.max(64, Math.ceil(image.width / 28) * Math.ceil(image.height / 28)) + 4;
}

/** The one line that replaces an image no longer sent: its name and size, so the model knows it was there. */
export function imageStandIn(image: ImagePart): string {
  const dims = image.width && image.height ? `, ${image.width}×${image.height}` : '';
  return `[image ${image.name} (${image.mimeType}${dims}) was shown earlier and is no longer in the context]`;
}

/** The message without its images, each named in a line instead (content otherwise unchanged). */
export function withoutImages<M extends { content: string; images?: ImagePart[] }>(message: M): M {
  if (!message.images?.length) return message;
  const { images, ...rest } = message;
  const lines = images.map(imageStandIn).join('\n');
  return { ...rest, content: rest.content ? `${rest.content}\n${lines}` : lines } as M;
}
