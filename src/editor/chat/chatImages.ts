// What the chat shows for a user message's images: each label with a small thumbnail, never the full picture.
import { dataUrl, imageLabel, type ImagePart } from '../../core/images/imagePart';
import { MAX_THUMBNAIL, type ChatImage } from '../../shared/chatModel';
import { IMAGE_DATA_URL } from '../../shared/imageUpload';

/**
 * The panel's thumbnail when it made one; an image small enough is its own thumbnail (one stored before the panel
 * made thumbnails, or a tiny one); otherwise the label alone.
 */
export function chatImagesOf(images: readonly ImagePart[] | undefined): ChatImage[] | undefined {
  if (!images?.length) return undefined;
  return images.map((image) => {
    const thumbnail = usable(image.thumbnail) ?? usable(dataUrl(image));
    return { name: imageLabel(image), ...(thumbnail && { thumbnail }) };
  });
}

/** The labels and thumbnails a turn_start event carries (thumbnails by index of the labels). */
export function chatImagesOfEvent(labels: readonly string[] | undefined, thumbnails: readonly (string | null)[] | undefined): ChatImage[] | undefined {
  if (!labels?.length) return undefined;
  return labels.map((name, i) => {
    const thumbnail = usable(thumbnails?.[i] ?? undefined);
    return { name, ...(thumbnail && { thumbnail }) };
  });
}

function usable(url: string | undefined): string | undefined {
  return url !== undefined && url.length <= MAX_THUMBNAIL && IMAGE_DATA_URL.test(url) ? url : undefined;
}
