// Images in core: sniffed from their bytes (never their names), sized from their headers, checked when they come
// as data URLs; who sees them (server, or the setting); the settings and the picker's badges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageFromBytes, imageFromDataUrl, imageSize, sniffImage } from '../../../src/core/images/imagePart';
import { modelSees, visionFor } from '../../../src/core/images/vision';
import { parseImageSettings } from '../../../src/editor/settings/imageSettings';
import { selectedModelInfo } from '../../../src/editor/models/selectedModelInfo';
import { makePng } from '../../helpers/images/png';

const signal = new AbortController().signal;

test('PNG, GIF, JPEG and WebP are told apart by their bytes and sized from their headers', () => {
  const png = new Uint8Array(makePng(640, 480));
  assert.equal(sniffImage(png), 'image/png');
  assert.deepEqual(imageSize(png, 'image/png'), { width: 640, height: 480 });
  const gif = Uint8Array.from([...Buffer.from('GIF89a'), 0x20, 0x03, 0x58, 0x02, 0, 0, 0]);
  assert.deepEqual([sniffImage(gif), imageSize(gif, 'image/gif')], ['image/gif', { width: 800, height: 600 }]);
  // JPEG: SOI, an APP0 segment of 16 bytes, then SOF0 with height 300 and width 400.
  const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...new Array(14).fill(0), 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x01, 0x90, 0x03]);
  assert.deepEqual([sniffImage(jpeg), imageSize(jpeg, 'image/jpeg')], ['image/jpeg', { width: 400, height: 300 }]);
  // WebP extended (VP8X): canvas 1024×768 stored minus one, 24-bit little-endian.
  const webp = Uint8Array.from([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8X'), 10, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x03, 0x00, 0xff, 0x02, 0x00]);
  assert.deepEqual([sniffImage(webp), imageSize(webp, 'image/webp')], ['image/webp', { width: 1024, height: 768 }]);
  assert.equal(sniffImage(new TextEncoder().encode('not an image')), undefined);
  const made = imageFromBytes(new TextEncoder().encode('hello'), 'fake.png');
  assert.deepEqual(made, { ok: false, message: 'fake.png is not a PNG, JPEG, WebP or GIF image.' });
});

test('a data URL is taken only when its bytes are the type it claims', () => {
  const b64 = makePng(3, 2).toString('base64');
  assert.deepEqual(imageFromDataUrl(`data:image/png;base64,${b64}`, 'a.png'), { mimeType: 'image/png', data: b64, name: 'a.png', width: 3, height: 2 });
  assert.equal(imageFromDataUrl(`data:image/jpeg;base64,${b64}`, 'a.jpg'), undefined);
  assert.equal(imageFromDataUrl('data:text/html;base64,PGI+', 'x'), undefined);
});

test('who sees: the server\'s "vision" capability, or the setting over it; a server that cannot be asked means no', async () => {
  assert.equal(modelSees({ capabilities: ['completion', 'vision'] }), true);
  assert.equal(modelSees({ capabilities: ['completion', 'tools'] }), false);
  assert.equal(modelSees({ capabilities: ['completion'] }, 'on'), true);
  assert.equal(modelSees({ capabilities: ['vision'] }, 'off'), false);
  const down = { modelInfo: async () => Promise.reject(new Error('connection refused')) };
  assert.equal(await visionFor(down, 'm', 'auto', signal), false);
  assert.equal(await visionFor(down, 'm', 'on', signal), true);
});

test('localharness.images.* : values checked, problems named, defaults kept', () => {
  const problems: string[] = [];
  assert.deepEqual(parseImageSettings(() => undefined, problems), { vision: 'auto', maxDimension: 1024 });
  const values: Record<string, unknown> = { 'images.vision': 'maybe', 'images.maxDimension': 50 };
  assert.deepEqual(parseImageSettings((k) => values[k], problems), { vision: 'auto', maxDimension: 128 });
  assert.deepEqual(problems, ['localharness.images.vision must be "auto", "on" or "off"; using "auto".', 'localharness.images.maxDimension must be between 128 and 4096; using 128.']);
});

test('the picker\'s badges: Ollama says tools and vision; LM Studio says vision only (tools unknown)', async () => {
  const ollama = { modelInfo: async () => ({ name: 'm', contextLength: 131072, capabilities: ['completion', 'vision', 'tools'] }) };
  assert.deepEqual(await selectedModelInfo(ollama, 'm', 'auto', signal), { vision: true, window: 131072, tools: true });
  const lmStudio = { modelInfo: async () => ({ name: 'm', contextLength: 32768, loadedContextLength: 8192, capabilities: ['vision'] }) };
  assert.deepEqual(await selectedModelInfo(lmStudio, 'm', 'auto', signal), { vision: true, window: 8192 });
  const plain = { modelInfo: async () => ({ name: 'm', capabilities: ['completion'] }) };
  assert.deepEqual(await selectedModelInfo(plain, 'm', 'auto', signal), { vision: false, tools: false });
});
