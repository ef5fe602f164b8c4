// ACP `image` content blocks (and embedded blob resources that are images) as ImageParts: the same four types and
// the same size limit as `run --image`, with the bytes checked against the declared type so a mislabelled payload
// is refused instead of sent. Every refusal is an invalid-params error that says what to change.
import path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { base64Bytes, IMAGE_MIMES, imageFromBytes, type ImageMime, type ImagePart } from '../../core/images/imagePart';
import { MAX_CLI_IMAGE_BYTES, tooLarge } from '../cliImages';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A name for the image: the file of its URI when there is one, else its position in the prompt. */
function nameOf(uri: string | null | undefined, index: number): string {
  if (uri) {
    const base = path.posix.basename(uri.replace(/[?#].*$/, ''));
    if (base) return decodeURIComponentSafe(base);
  }
  return `image ${index}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The image of one block's data; throws invalid params naming the image and what is wrong with it. */
export function acpImage(block: { data: string; mimeType: string; uri?: string | null }, index: number): ImagePart {
  const name = nameOf(block.uri, index);
  if (!IMAGE_MIMES.includes(block.mimeType as ImageMime)) {
    throw RequestError.invalidParams({ mimeType: block.mimeType }, `${name}: images of type ${block.mimeType || '(none)'} are not accepted; send PNG, JPEG, WebP or GIF`);
  }
  if (typeof block.data !== 'string' || !block.data || !BASE64.test(block.data)) {
    throw RequestError.invalidParams(undefined, `${name}: the image data is not base64`);
  }
  // Weighed before decoding, so an oversize payload is not copied again.
  const size = base64Bytes(block.data);
  if (size > MAX_CLI_IMAGE_BYTES) throw RequestError.invalidParams({ size, limit: MAX_CLI_IMAGE_BYTES }, tooLarge(name, size));
  const made = imageFromBytes(new Uint8Array(Buffer.from(block.data, 'base64')), name);
  if (!made.ok) throw RequestError.invalidParams(undefined, made.message);
  if (made.image.mimeType !== block.mimeType) {
    throw RequestError.invalidParams({ mimeType: block.mimeType }, `${name} is declared ${block.mimeType} but its bytes are ${made.image.mimeType}`);
  }
  return made.image;
}

/** Whether an embedded resource is an image to send as one (a blob of one of the four types). */
export function isImageResource(resource: acp.EmbeddedResource['resource']): resource is acp.BlobResourceContents & { mimeType: string } {
  return 'blob' in resource && IMAGE_MIMES.includes(resource.mimeType as ImageMime);
}
