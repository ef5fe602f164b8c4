// An image is never sent again once its message is compressed or evicted: a one-line stand-in names it, on both
// wire formats. Uses the real context manager (fallback and eviction) on a recorded-shape session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { HistoryView } from '../../../src/core/compression/view';
import type { ChatMessage } from '../../../src/core/messages';
import { imageFromBytes, type ImagePart } from '../../../src/core/images/imagePart';
import { estimateMessageTokens } from '../../../src/core/tokens';
import { toOllamaMessages } from '../../../src/providers/ollamaMessages';
import { toOpenAIMessages } from '../../../src/providers/openaiMessages';
import { GarbageModel } from '../../helpers/compression/compressionModels';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../../helpers/compression/sessionFixture';
import { makePng } from '../../helpers/images/png';

const signal = new AbortController().signal;

function png(name: string, width: number, height: number): ImagePart {
  const made = imageFromBytes(new Uint8Array(makePng(width, height)), name);
  assert.ok(made.ok);
  return made.image;
}

function manager(window: number) {
  const reports: CompressionReport[] = [];
  const m = createContextManager({
    provider: new GarbageModel(),
    model: 'test-model',
    window,
    tools: () => SESSION_TOOLS,
    compressionModel: null,
    settings: { minAnswerTokens: 500 },
    onCompression: (r) => reports.push(r),
  });
  return { m, reports };
}

/** Every image a rendered request carries, on either wire. */
function wireImages(out: ChatMessage[]): number {
  const ollama = toOllamaMessages(out).reduce((n, m) => n + (m.images?.length ?? 0), 0);
  const openai = toOpenAIMessages(out).reduce((n, m) => n + (Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url').length : 0), 0);
  assert.equal(ollama, openai, 'both wires carry the same images');
  return ollama;
}

function sessionWithImages(): ChatMessage[] {
  const history = scriptedSession({ messages: 100, seed: 11, fileChars: 1200 });
  const firstUser = history.findIndex((m) => m.role === 'user');
  const firstTool = history.findIndex((m) => m.role === 'tool');
  history[firstUser] = { ...history[firstUser]!, images: [png('screenshot.png', 64, 48)] };
  history[firstTool] = { ...history[firstTool]!, images: [png('diagram.png', 32, 32)] };
  return history;
}

test('with room, both images are sent (the control for the tests below)', async () => {
  const { m, reports } = manager(1_000_000);
  const out = await m.prepareMessages([systemMessage(), ...sessionWithImages()], signal);
  assert.equal(reports.length, 0);
  assert.equal(wireImages(out), 2);
});

test('compressed and evicted away, no image is re-sent; a line names each one that stays in view', async () => {
  const { m, reports } = manager(6144);
  const out = await m.prepareMessages([systemMessage(), ...sessionWithImages()], signal);
  assert.ok(reports.length > 0 && reports[0]!.messagesAffected > 0);
  assert.equal(wireImages(out), 0);
});

test('a pinned request keeps its words and names its image; a compressed tool result names its image', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: 'What is wrong in this screenshot?', images: [png('screenshot.png', 64, 48)] },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'diagram.png' } }] },
    { role: 'tool', content: 'diagram.png is a PNG image; the image follows.', toolCallId: 'c1', toolName: 'read_file', images: [png('diagram.png', 32, 32)] },
    { role: 'assistant', content: 'The button overlaps the label.' },
  ];
  const view = new HistoryView();
  view.replace(history, 2, { role: 'tool', content: 'read_file diagram.png: an image', toolCallId: 'c1', toolName: 'read_file' }, 'fallback');
  view.evictThrough(history, 1);
  const out = view.build({ role: 'system', content: 'sys' }, history, 500);
  assert.equal(wireImages(out), 0);
  assert.equal(out[1]!.content, 'What is wrong in this screenshot?\n[image screenshot.png (image/png, 64×48) was shown earlier and is no longer in the context]');
  assert.match(out.find((m) => m.role === 'tool')!.content, /^read_file diagram\.png: an image\n\[image diagram\.png \(image\/png, 32×32\) was shown earlier/);
  // The history itself keeps both images (the panel and the store show them).
  assert.equal(history[0]!.images?.length, 1);
  assert.equal(history[2]!.images?.length, 1);
});

test('an image counts against the window by its size', () => {
  const base: ChatMessage = { role: 'user', content: 'look' };
  const small = estimateMessageTokens({ ...base, images: [png('a.png', 28, 28)] }) - estimateMessageTokens(base);
  const large = estimateMessageTokens({ ...base, images: [png('b.png', 1024, 768)] }) - estimateMessageTokens(base);
  assert.ok(small >= 64 && small < 100, `small ${small}`);
  assert.equal(large, Math.ceil(1024 / 28) * Math.ceil(768 / 28) + 4);
});
