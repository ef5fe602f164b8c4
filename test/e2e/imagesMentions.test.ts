// Images and mentions in a real VS Code: a PNG pasted into the message box (a real paste event with the image in
// its clipboard data) becomes a chip with a thumbnail, goes to the fake Ollama server with the message as `images`
// (shrunk by the panel's canvas, still a PNG of the same size here), and the user message names it. Typing `@uti`
// offers src/util.ts (not the git-ignored file); choosing it attaches the file, whose text reaches the model.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { shownText, waitUntil } from '../helpers/e2e/chatPanel';
import { contentText, markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';
import type { ChatBody } from '../helpers/fakeLlm';
import { makePng } from '../helpers/images/png';

const MARKER = 'What is in this screenshot?';

const MENTION_MARKER = 'Explain this file.';
const UTIL = 'export function util(n: number): number {\n  return n + 1;\n}\n';

const script = markerScript({
  [MARKER]: [{ text: 'A red rectangle.' }],
  [MENTION_MARKER]: [{ text: 'It adds one.' }],
});

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'imagesMentions',
    script,
    model: 'qwen2.5vl:7b',
    vision: true,
    files: { 'src/util.ts': UTIL, 'build/utility.js': 'ignored\n', '.gitignore': 'build/\n' },
  });
  await session.chat.open();
}, { timeout: 300_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

describe('images in the editor', { timeout: 300_000 }, () => {
  test('the panel draws codicons and shows the vision model\'s badges beside its name', async () => {
    await session.step('native panel', async () => {
      const frame = await session.chat.contentFrame();
      await frame.locator('.model-badges .model-vision.codicon-eye').waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await session.chat.modelPicker.inputValue(), 'qwen2.5vl:7b');
      assert.match(await frame.locator('.model-window').innerText(), /^32K$/);
      // The icon font really loaded (CSP font-src allows the webview's own files).
      const loaded = await frame.evaluate(async () => {
        await document.fonts.ready;
        return document.fonts.check('16px codicon');
      });
      assert.equal(loaded, true);
      const glyphWidth = await frame.locator('button[aria-label="New chat"] .codicon-add').evaluate((el) => el.getBoundingClientRect().width);
      assert.ok(glyphWidth >= 10, `codicon glyph width ${glyphWidth}`);
    });
  });

  test('a pasted PNG reaches a vision model as an image of the message', async () => {
    await session.step('paste an image', async () => {
      const chat = session.chat;
      const png = makePng(40, 30).toString('base64');
      // A real paste event whose clipboard data holds the PNG, as the browser fires for a pasted screenshot.
      await chat.message.evaluate((el, b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, png);
      const frame = await chat.contentFrame();
      const chip = frame.locator('.image-chip');
      await chip.waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await chip.locator('.attachment-label').innerText(), 'pasted image 1.png');
      assert.match((await chip.locator('img.image-thumb').getAttribute('src')) ?? '', /^data:image\/png;base64,/);

      await chat.send(MARKER);
      await waitUntil(async () => (await chat.assistantMessages.count()) > 0 && /A red rectangle/.test(await shownText(chat.assistantMessages.last())), 60_000, 'the answer');
      assert.equal(await frame.locator('.image-chip').count(), 0, 'the chip left the box with the message');

      const request = (session.llm.requests as ChatBody[]).find((b) => (b.messages ?? []).some((m) => m.role === 'user' && contentText(m.content).includes(MARKER)))!;
      const user = (request.messages ?? []).find((m) => m.role === 'user' && contentText(m.content).includes(MARKER)) as { images?: string[] };
      assert.equal(user.images?.length, 1);
      const sent = Buffer.from(user.images![0]!, 'base64');
      assert.equal(sent.subarray(1, 4).toString('ascii'), 'PNG');
      assert.deepEqual([sent.readUInt32BE(16), sent.readUInt32BE(20)], [40, 30]);
      assert.match(await shownText(chat.userMessages.last()), /Attached: pasted image 1\.png \(40×30\)/);
      // The sent message shows the image as a thumbnail (a data URL the CSP allows), decoded at its 40×30 size.
      const thumb = chat.userMessages.last().locator('img.message-image');
      assert.equal(await thumb.count(), 1);
      assert.equal(await thumb.getAttribute('alt'), 'pasted image 1.png (40×30)');
      assert.match((await thumb.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
      await waitUntil(async () => (await thumb.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)) === 40, 10_000, 'the thumbnail decoded');
      assert.equal(await thumb.evaluate((img) => (img as HTMLImageElement).naturalHeight), 30);
    });
  });

  test('typing @ offers files (never git-ignored ones); choosing one attaches it and the model gets its text', async () => {
    await session.step('mention a file', async () => {
      const chat = session.chat;
      await chat.reset();
      const frame = await chat.contentFrame();
      await chat.message.click();
      await chat.message.pressSequentially('Explain @uti', { delay: 30 });
      const options = frame.locator('.mention-suggestions .mention-option');
      await waitUntil(async () => (await options.count()) > 0 && (await options.allInnerTexts()).some((t) => t.includes('src/util.ts')), 30_000, 'the @ list with src/util.ts');
      const texts = await options.allInnerTexts();
      assert.ok(!texts.some((t) => t.includes('build/utility.js')), `git-ignored file offered: ${texts.join(' | ')}`);
      await options.filter({ hasText: 'src/util.ts' }).first().dispatchEvent('mousedown');
      await frame.locator('.attachment-chip[data-path="src/util.ts"]').waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await chat.message.inputValue(), 'Explain @src/util.ts ');

      await chat.message.fill(`${await chat.message.inputValue()}${MENTION_MARKER}`);
      await chat.sendButton.click();
      await waitUntil(async () => (await chat.assistantMessages.count()) > 0 && /It adds one/.test(await shownText(chat.assistantMessages.last())), 60_000, 'the answer');
      const request = (session.llm.requests as ChatBody[]).find((b) => (b.messages ?? []).some((m) => m.role === 'user' && contentText(m.content).includes(MENTION_MARKER)))!;
      const user = (request.messages ?? []).find((m) => m.role === 'user' && contentText(m.content).includes(MENTION_MARKER))!;
      assert.match(contentText(user.content), /src\/util\.ts\n```\w*\nexport function util\(n: number\)/);
    });
  });
});
