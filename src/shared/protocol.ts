// The host <-> webview protocol: every message in both directions, validated with zod on receipt.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { ChatEventSchema, ChatItemSchema, ChatViewStateSchema, HotContextViewSchema, MAX_TEXT } from './chatModel';
import { ImageHostMessages, ImageUploadsSchema, SelectedModelInfoSchema } from './imageUpload';
import { MentionHostMessages, MentionWebviewMessages } from './mentions';

export * from './chatModel';

// zod/mini ships without messages; English ones make dropped-message log lines readable.
z.config(en());

const Seq = z.int().check(z.nonnegative());

/** Most items one `olderItems` answer carries. */
export const MAX_OLDER_ITEMS = 2000;

/** Longest message the user may send in one go (a big paste is fine; a runaway one is not). */
export const MAX_USER_MESSAGE = 200_000;

/** Only web links leave the webview, and only through the host. */
export function isWebLink(url: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(url.trim());
}

// ---- host -> webview ----

/** One stored session in the History view. */
export const SessionEntrySchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  title: z.string().check(z.maxLength(1000)),
  model: z.string().check(z.maxLength(500)),
  /** Last change, ms since the epoch. */
  updatedAt: z.number().check(z.nonnegative()),
  messageCount: z.int().check(z.nonnegative()),
  /** Stopped in the middle of a turn (the window closed or crashed). */
  interrupted: z.boolean(),
});
export type SessionEntry = z.infer<typeof SessionEntrySchema>;

/** An MCP prompt offered as a slash command in the message box (see slashCommand.ts). */
export const SlashCommandSchema = z.object({
  /** `server.prompt`, without the slash; one word. */
  command: z.string().check(z.minLength(1), z.maxLength(500), z.regex(/^[^\s/]+$/, 'one word without slashes')),
  title: z.optional(z.string().check(z.maxLength(500))),
  description: z.optional(z.string().check(z.maxLength(2000))),
});
export type SlashCommand = z.infer<typeof SlashCommandSchema>;

export const SessionActionSchema = z.enum(['open', 'rename', 'delete', 'exportMarkdown', 'exportJson']);
export type SessionAction = z.infer<typeof SessionActionSchema>;

/** What the setup check said about one model, for a mark and a tooltip in the model picker. */
export const ModelCheckSchema = z.object({
  model: z.string().check(z.maxLength(500)),
  verdict: z.enum(['ready', 'limited', 'unusable']),
  summary: z.string().check(z.maxLength(5000)),
});
export type ModelCheck = z.infer<typeof ModelCheckSchema>;

export const ChatModeSchema = z.enum(['agent', 'plan', 'ask']);
export type ChatModeName = z.infer<typeof ChatModeSchema>;

export const HostToWebviewSchema = z.discriminatedUnion('type', [
  /**
   * The whole state at `seq`; sent on `ready` and whenever the incremental stream cannot continue. A long
   * conversation comes as its newest items: `older` more precede `state.items[0]` (ask with `olderItems`).
   */
  z.object({ type: z.literal('snapshot'), seq: Seq, state: ChatViewStateSchema, older: z.optional(Seq) }),
  /** The answer to `olderItems`: the items just before item `before`, oldest first; `older` more precede them. */
  z.object({
    type: z.literal('olderItems'),
    before: z.string().check(z.minLength(1), z.maxLength(200)),
    items: z.array(ChatItemSchema).check(z.maxLength(MAX_OLDER_ITEMS)),
    older: Seq,
  }),
  /** Events after `base` up to `seq`. A webview whose own seq is not `base` asks for a snapshot. */
  z.object({ type: z.literal('events'), base: Seq, seq: Seq, events: z.array(ChatEventSchema).check(z.minLength(1), z.maxLength(10_000)) }),
  z.object({
    type: z.literal('models'),
    models: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(5000)),
    selected: z.nullable(z.string().check(z.maxLength(500))),
    /** Why the list is empty, in plain words (server down, nothing pulled). */
    error: z.optional(z.string().check(z.maxLength(5000))),
    /** The setup check's verdict on the listed models it looked at. */
    checks: z.optional(z.array(ModelCheckSchema).check(z.maxLength(5000))),
    /** The selected model's window and vision/tools badges (imageUpload.ts). */
    selectedInfo: z.optional(SelectedModelInfoSchema),
  }),
  /** "What the model knows". `reveal` opens the panel (the command); otherwise it refreshes an open one. */
  z.object({ type: z.literal('hotContext'), view: HotContextViewSchema, reveal: z.optional(z.boolean()) }),
  /** Move keyboard focus to the message box (the focus-chat command). */
  z.object({ type: z.literal('focus') }),
  /** The mode the switch shows (on load, and when the host changed it: Act switches to Agent). */
  z.object({ type: z.literal('mode'), mode: ChatModeSchema }),
  /** Put text into the message box without sending it. */
  z.object({ type: z.literal('prefill'), text: z.string().check(z.maxLength(MAX_USER_MESSAGE)) }),
  /** The stored sessions for the History view. `reveal` opens the view (the Show Sessions command). */
  z.object({
    type: z.literal('sessions'),
    sessions: z.array(SessionEntrySchema).check(z.maxLength(10_000)),
    /** The session the panel shows, null for a chat not saved yet. */
    currentId: z.nullable(z.string().check(z.maxLength(200))),
    /** Why the list is empty or cannot change (no database, read-only in this window). */
    note: z.optional(z.string().check(z.maxLength(5000))),
    reveal: z.optional(z.boolean()),
  }),
  /** What the ready MCP servers offer the message box: prompts as slash commands, and how many resources can be attached. */
  z.object({
    type: z.literal('mcpOffers'),
    prompts: z.array(SlashCommandSchema).check(z.maxLength(2000)),
    /** Resources and resource templates together; the panel offers its "@" button when there are any. */
    resources: z.int().check(z.nonnegative()),
  }),
  // Images (imageUpload.ts).
  ...ImageHostMessages,
  // `@` mentions (mentions.ts).
  ...MentionHostMessages,
]);
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

// ---- webview -> host ----

/** Commands the panel may ask the host to run; the host maps them to `localharness.*` command ids. */
export const PanelCommandSchema = z.enum(['openSettings', 'showLogs', 'selectModel', 'manageApprovalRules', 'resumeSession', 'attachMcpResource', 'checkSetup']);
export type PanelCommand = z.infer<typeof PanelCommandSchema>;

export const WebviewToHostSchema = z.discriminatedUnion('type', [
  /** The webview (re)loaded or lost track: send a snapshot. */
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('send'),
    text: z.string().check(z.maxLength(MAX_USER_MESSAGE), z.refine((t) => t.trim() !== '', 'the message is empty')),
    /** Pasted, dropped or explorer images, already shrunk by the panel (imageUpload.ts). */
    images: z.optional(ImageUploadsSchema),
  }),
  z.object({ type: z.literal('stop') }),
  /** The mode switch: what the next turns may do (Agent: everything, Plan: read tools, Ask: no tools). */
  z.object({ type: z.literal('setMode'), mode: ChatModeSchema }),
  /** "Act" on a plan: switch to Agent and send the plan (as edited) to be carried out. */
  z.object({ type: z.literal('act'), plan: z.string().check(z.maxLength(MAX_USER_MESSAGE), z.refine((t) => t.trim() !== '', 'the plan is empty')) }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('selectModel'), name: z.string().check(z.minLength(1), z.maxLength(500)) }),
  z.object({ type: z.literal('refreshModels') }),
  /** The "what the model knows" panel opened (host sends and keeps sending hotContext) or closed. */
  z.object({ type: z.literal('hotContext'), open: z.boolean() }),
  z.object({ type: z.literal('openLink'), url: z.string().check(z.maxLength(8000), z.refine(isWebLink, 'only http and https links')) }),
  z.object({ type: z.literal('copy'), text: z.string().check(z.maxLength(MAX_TEXT)) }),
  z.object({ type: z.literal('runCommand'), command: PanelCommandSchema }),
  /** The History view opened (host sends the session list) or closed. */
  z.object({ type: z.literal('sessions'), open: z.boolean() }),
  z.object({ type: z.literal('sessionAction'), action: SessionActionSchema, id: z.string().check(z.minLength(1), z.maxLength(200)) }),
  /** The × on a context chip. */
  z.object({ type: z.literal('removeAttachment'), id: z.string().check(z.minLength(1), z.maxLength(200)) }),
  /** Scrolled up to the oldest item it has: the `count` items before item `before` (answered with `olderItems`). */
  z.object({
    type: z.literal('olderItems'),
    before: z.string().check(z.minLength(1), z.maxLength(200)),
    count: z.int().check(z.positive(), z.maximum(MAX_OLDER_ITEMS)),
  }),
  /** "Restore to here" on a user message: the workspace and the conversation go back to before it (the host confirms). */
  z.object({ type: z.literal('restoreTo'), messageId: z.int().check(z.positive()) }),
  /** Review of the last turn's files: keep or undo one (`path`) or all (no path), or open one's diff. */
  z.object({
    type: z.literal('reviewAction'),
    action: z.enum(['keep', 'undo', 'open']),
    path: z.optional(z.string().check(z.minLength(1), z.maxLength(8000))),
  }),
  // `@` mentions (mentions.ts).
  ...MentionWebviewMessages,
  /** A timing measured in the webview, logged by the host (and read by the e2e suite). */
  z.object({
    type: z.literal('perf'),
    name: z.string().check(z.maxLength(100)),
    ms: z.number().check(z.nonnegative()),
    count: z.optional(z.int().check(z.nonnegative())),
  }),
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

export function parseHostMessage(raw: unknown): ParseResult<HostToWebview> {
  return toResult(HostToWebviewSchema.safeParse(raw));
}

export function parseWebviewMessage(raw: unknown): ParseResult<WebviewToHost> {
  return toResult(WebviewToHostSchema.safeParse(raw));
}

function toResult<T>(res: { success: true; data: T } | { success: false; error: z.core.$ZodError }): ParseResult<T> {
  if (res.success) return { ok: true, message: res.data };
  return { ok: false, error: describeIssues(res.error) };
}

/** A short, log-friendly description: the first few issues with their paths. */
export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

/** What a dropped message looked like, without dumping a huge payload into the log. */
export function summarizeMessage(raw: unknown): string {
  if (raw && typeof raw === 'object' && 'type' in raw) return `type=${String((raw as { type: unknown }).type).slice(0, 40)}`;
  return typeof raw;
}
