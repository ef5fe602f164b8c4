// `localharness.images.*`: whether the model sees images (ask the server, or the user says) and the size the panel
// shrinks pictures to before they are sent.
import type { VisionSetting } from '../../core/images/vision';

export interface ImageSettings {
  /** auto: the server says (Ollama capabilities, LM Studio type); on/off: the user knows better. */
  vision: VisionSetting;
  /** Longest side in pixels after the panel shrinks a pasted or attached image. */
  maxDimension: number;
}

export const DEFAULT_IMAGE_SETTINGS: ImageSettings = { vision: 'auto', maxDimension: 1024 };

export function parseImageSettings(get: (key: string) => unknown, problems: string[]): ImageSettings {
  const d = DEFAULT_IMAGE_SETTINGS;
  const visionRaw = get('images.vision');
  let vision = d.vision;
  if (visionRaw === 'auto' || visionRaw === 'on' || visionRaw === 'off') vision = visionRaw;
  else if (visionRaw !== undefined && visionRaw !== null) problems.push(`localharness.images.vision must be "auto", "on" or "off"; using "${d.vision}".`);
  const dimRaw = get('images.maxDimension');
  let maxDimension = d.maxDimension;
  if (typeof dimRaw === 'number' && Number.isFinite(dimRaw)) {
    maxDimension = Math.min(4096, Math.max(128, Math.round(dimRaw)));
    if (maxDimension !== dimRaw) problems.push(`localharness.images.maxDimension must be between 128 and 4096; using ${maxDimension}.`);
  } else if (dimRaw !== undefined && dimRaw !== null) problems.push(`localharness.images.maxDimension should be a number; using ${d.maxDimension}.`);
  return { vision, maxDimension };
}
