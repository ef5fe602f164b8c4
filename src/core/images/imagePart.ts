// An image the model sees: the bytes (base64) and what they are. Sniffed from the bytes, never from a file name,
// so a renamed text file is not sent as a picture. Dimensions come from the header only (no decoder).

export interface ImagePart {
  /** image/png, image/jpeg, image/webp or image/gif. */
  mimeType: ImageMime;
  /** The bytes, base64, without a `data:` prefix (Ollama `images` wants exactly this). */
  data: string;
  /** What the user or the tool called it (a file name, "pasted image 1"). */
  name: string;
  width?: number;
  height?: number;
  /** A small data URL the chat shows for it (made by the panel); never sent to the model. */
  thumbnail?: string;
}

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
export const IMAGE_MIMES: readonly ImageMime[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** The image type of these bytes, or undefined when they are no PNG, JPEG, WebP or GIF. */
export function sniffImage(bytes: Uint8Array): ImageMime | undefined {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return undefined;
}

/** Width and height from the file header; undefined when the header does not say (a truncated file). */
export function imageSize(bytes: Uint8Array, mime: ImageMime): { width: number; height: number } | undefined {
  const u16be = (i: number) => (bytes[i]! << 8) | bytes[i + 1]!;
  const u16le = (i: number) => bytes[i]! | (bytes[i + 1]! << 8);
  const u24le = (i: number) => bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16);
  const u32be = (i: number) => ((bytes[i]! << 24) >>> 0) + (bytes[i + 1]! << 16) + (bytes[i + 2]! << 8) + bytes[i + 3]!;
  const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  if (mime === 'image/png') return bytes.length >= 24 ? size(u32be(16), u32be(20)) : undefined;
  if (mime === 'image/gif') return bytes.length >= 10 ? size(u16le(6), u16le(8)) : undefined;
  if (mime === 'image/webp') {
    if (bytes.length < 30) return undefined;
    const chunk = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
    if (chunk === 'VP8 ') return size(u16le(26) & 0x3fff, u16le(28) & 0x3fff);
    if (chunk === 'VP8L') {
      const b = (i: number) => bytes[21 + i]!;
      return size(1 + (((b(1) & 0x3f) << 8) | b(0)), 1 + (((b(3) & 0xf) << 10) | (b(2) << 2) | ((b(1) & 0xc0) >> 6)));
    }
    if (chunk === 'VP8X') return size(1 + u24le(24), 1 + u24le(27));
    return undefined;
  }
  // JPEG: walk the segments to the first start-of-frame marker (SOF0..SOF15 but DHT, JPG, DAC).
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return size(u16be(i + 7), u16be(i + 5));
    i += 2 + u16be(i + 2);
  }
  return undefined;
}

/** Base64 without Buffer (core runs in node and in the browser alike). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes of a base64 string (its length only: how many bytes an image weighs). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** An ImagePart of these bytes, or a sentence saying why they are not an image we send. */
export function imageFromBytes(bytes: Uint8Array, name: string): { ok: true; image: ImagePart } | { ok: false; message: string } {
  const mime = sniffImage(bytes);
  if (!mime) return { ok: false, message: `${name} is not a PNG, JPEG, WebP or GIF image.` };
  const dims = imageSize(bytes, mime);
  return { ok: true, image: { mimeType: mime, data: toBase64(bytes), name, ...(dims && dims) } };
}

/** `data:image/png;base64,…` (OpenAI-compatible `image_url`). */
export function dataUrl(image: ImagePart): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** Parses a data URL of one of the four types; undefined for anything else. */
export function imageFromDataUrl(url: string, name: string): ImagePart | undefined {
  const m = /^data:(image\/(?:png|jpeg|webp|gif));base64,([A-Za-z0-9+/]+={0,2})$/.exec(url);
  if (!m) return undefined;
  const head = Uint8Array.from(atob(m[2]!.slice(0, 131072)), (c) => c.charCodeAt(0));
  const mime = sniffImage(head);
  if (mime !== m[1]) return undefined;
  const dims = imageSize(head, mime);
  return { mimeType: mime, data: m[2]!, name, ...(dims && dims) };
}

/** "screenshot.png (1024×768)": how events and chips name an image. */
export function imageLabel(image: ImagePart): string {
  return image.width && image.height ? `${image.name} (${image.width}×${image.height})` : image.name;
}
