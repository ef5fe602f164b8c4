// Images between the panel and the host: the panel pastes, drops or receives (from the explorer) an image, shrinks
// it with a canvas to the setting's size and sends it with the message as a data URL.
import * as z from 'zod/mini';

export const MAX_IMAGES_PER_MESSAGE = 8;
/** A data URL of a downscaled picture (1024 px JPEG/PNG is well under 2 MB; the cap stops a runaway one). */
export const MAX_IMAGE_DATA_URL = 12_000_000;
/** Longest thumbnail data URL (a 160 px JPEG is about 10 KB). */
export const MAX_THUMBNAIL = 64_000;
export const IMAGE_DATA_URL = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/;

export const ImageUploadSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(300)),
  dataUrl: z.string().check(z.maxLength(MAX_IMAGE_DATA_URL), z.regex(IMAGE_DATA_URL, 'a PNG, JPEG, WebP or GIF data URL')),
  /** The chat's thumbnail of it (at most THUMBNAIL_SIZE px), made by the panel: the host has no image decoder. */
  thumbnail: z.optional(z.string().check(z.maxLength(MAX_THUMBNAIL), z.regex(IMAGE_DATA_URL, 'a PNG, JPEG, WebP or GIF data URL'))),
});
/** Longer side of a sent image's thumbnail in the chat, in pixels. */
export const THUMBNAIL_SIZE = 160;
export type ImageUpload = z.infer<typeof ImageUploadSchema>;

export const ImageUploadsSchema = z.array(ImageUploadSchema).check(z.maxLength(MAX_IMAGES_PER_MESSAGE));

/** Host → panel: an image to add to the message box (from the explorer), and the size the panel shrinks to. */
export const ImageHostMessages = [
  z.object({ type: z.literal('addImage'), image: ImageUploadSchema }),
  z.object({ type: z.literal('imageOptions'), maxDimension: z.int().check(z.positive()) }),
] as const;

/** What the panel shows beside the model picker: the window and whether the model sees images and calls tools. */
export const SelectedModelInfoSchema = z.object({
  window: z.optional(z.int().check(z.positive())),
  vision: z.boolean(),
  /** Absent: the server does not say. */
  tools: z.optional(z.boolean()),
});
export type SelectedModelInfo = z.infer<typeof SelectedModelInfoSchema>;
