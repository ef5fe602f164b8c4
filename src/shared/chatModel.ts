// The chat view's data: the items the panel shows, the state the host owns, and the UI events that change it.
// Schemas (zod) and types in one place so the host and the webview validate the same shapes.
// zod/mini (functional checks) keeps the webview bundle small: the classic API would add ~400 KB.
import * as z from 'zod/mini';
import { IMAGE_DATA_URL, MAX_IMAGES_PER_MESSAGE, MAX_THUMBNAIL } from './imageUpload';

/** Longest tool argument / result text kept in the view state; the full text lives in the core's history. */
export const MAX_TOOL_TEXT = 20_000;
/** Longest single text field accepted over the bridge (a whole assistant message can be long). */
export const MAX_TEXT = 2_000_000;

const Text = z.string().check(z.maxLength(MAX_TEXT));
const Short = (max: number) => z.string().check(z.maxLength(max));
const Id = z.string().check(z.minLength(1), z.maxLength(200));
const Count = z.int().check(z.nonnegative());

export const ToolStatusSchema = z.enum(['running', 'done', 'error', 'denied']);
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

/** Next steps an error can offer as buttons; the host maps each to a command. */
export const ErrorActionSchema = z.enum(['openSettings', 'showLogs', 'selectModel', 'resumeSession']);
export type ErrorAction = z.infer<typeof ErrorActionSchema>;

export const ApprovalStateSchema = z.enum(['pending', 'approved', 'denied']);

export const ToolApprovalSchema = z.object({
  state: ApprovalStateSchema,
  title: Text,
  detail: Text,
  risk: Short(40),
  scope: z.optional(Short(40)),
  reason: z.optional(Text),
});
export type ToolApproval = z.infer<typeof ToolApprovalSchema>;

/**
 * Set on a message the context manager compressed: the text the model now sees instead of the original
 * (the panel shows it as "[Compressed]" with the original expandable).
 */
const Compressed = z.optional(Text);

/** The turn's mode when not Agent: a Plan turn's answer gets Act. */
const TurnMode = z.optional(z.enum(['plan', 'ask']));
/**
 * An image of a user message as the chat shows it: its label and a small thumbnail (a data URL of at most 160 px,
 * made by the panel), never the full picture, so snapshots stay light. No thumbnail: the label alone.
 */
export { MAX_THUMBNAIL };
export const ChatImageSchema = z.object({
  name: Short(400),
  thumbnail: z.optional(z.string().check(z.maxLength(MAX_THUMBNAIL), z.regex(IMAGE_DATA_URL, 'a PNG, JPEG, WebP or GIF data URL'))),
});
export type ChatImage = z.infer<typeof ChatImageSchema>;
const ChatImages = z.optional(z.array(ChatImageSchema).check(z.maxLength(MAX_IMAGES_PER_MESSAGE)));
export const UserItemSchema = z.object({
  kind: z.literal('user'),
  id: Id,
  text: Text,
  images: ChatImages,
  compressed: Compressed,
  /** The stored message this is (once saved): "Restore to here" names it. Absent for a chat that is not saved. */
  messageId: z.optional(z.int().check(z.positive())),
  mode: TurnMode,
});
export const AssistantItemSchema = z.object({
  kind: z.literal('assistant'),
  id: Id,
  text: Text,
  thinking: Text,
  /** True while deltas may still be appended to this item. */
  streaming: z.boolean(),
  compressed: Compressed,
});
export const ToolItemSchema = z.object({
  kind: z.literal('tool'),
  id: Id,
  /** The model's tool call id; not unique across turns on every server, so lookups take the latest. */
  callId: Short(200),
  name: Short(200),
  args: Text,
  status: ToolStatusSchema,
  approval: z.optional(ToolApprovalSchema),
  progress: z.optional(Text),
  result: z.optional(Text),
  durationMs: z.optional(z.number().check(z.nonnegative())),
  compressed: Compressed,
});
/** Display-only: shown in the panel, never part of what the model reads. */
export const NoticeItemSchema = z.object({ kind: z.literal('notice'), id: Id, text: Text });
export const ErrorItemSchema = z.object({ kind: z.literal('error'), id: Id, text: Text, actions: z.array(ErrorActionSchema).check(z.maxLength(5)) });

export const ChatItemSchema = z.discriminatedUnion('kind', [
  UserItemSchema,
  AssistantItemSchema,
  ToolItemSchema,
  NoticeItemSchema,
  ErrorItemSchema,
]);
export type UserItem = z.infer<typeof UserItemSchema>;
export type AssistantItem = z.infer<typeof AssistantItemSchema>;
export type ToolItem = z.infer<typeof ToolItemSchema>;
export type NoticeItem = z.infer<typeof NoticeItemSchema>;
export type ErrorItem = z.infer<typeof ErrorItemSchema>;
export type ChatItem = z.infer<typeof ChatItemSchema>;

/** Prompt tokens the server was sent, and how many of them it took from its prompt cache instead of reading them. */
export const CacheCountsSchema = z.object({
  prompt: Count,
  cached: Count,
  /** The server did not say; the cached count is estimated from how much the request matched the last one. */
  estimated: z.boolean(),
});
export type CacheCountsData = z.infer<typeof CacheCountsSchema>;

export const ContextUsageSchema = z.object({
  /** Tokens the last model call used (prompt + completion). */
  used: Count,
  /** The context window the server runs; null when unknown. */
  available: z.nullable(Count),
  /** The server's prompt cache: the last request, and the current (or last) turn in total. */
  cache: z.optional(z.object({ last: CacheCountsSchema, turn: CacheCountsSchema })),
});
export type ContextUsage = z.infer<typeof ContextUsageSchema>;

/**
 * A context chip: a reference to code the user attached to the next message. The text is read when the message
 * is sent (so edits made meanwhile are seen), never stored here.
 */
export const CodeAttachmentSchema = z.object({
  id: Id,
  /** Workspace-relative path, the chip's label and the tracker's name for the file ("src/a.ts"). */
  path: Short(4000),
  /** The path the editor's file system reads (absolute; a URI path in remote workspaces). */
  file: Short(8000),
  /** 1-based inclusive; both absent = the whole file. */
  startLine: z.optional(z.int().check(z.positive())),
  endLine: z.optional(z.int().check(z.positive())),
  languageId: z.optional(Short(100)),
});
export type CodeAttachment = z.infer<typeof CodeAttachmentSchema>;

/** A resource an MCP server lists (or a filled template): read through that server when the message is sent. */
export const ResourceAttachmentSchema = z.object({
  id: Id,
  kind: z.literal('mcpResource'),
  server: z.string().check(z.minLength(1), z.maxLength(200)),
  uri: z.string().check(z.minLength(1), z.maxLength(8000)),
  /** The server's name for it, shown on the chip. */
  name: z.optional(Short(500)),
  mimeType: z.optional(Short(200)),
});
export type ResourceAttachment = z.infer<typeof ResourceAttachmentSchema>;

/**
 * What an `@` mention captured when it was chosen (`@problems`, `@terminal`, `@folder`): the text itself, since
 * diagnostics and a terminal's output change and cannot be read again later the same way.
 */
export const MentionAttachmentSchema = z.object({
  id: Id,
  kind: z.literal('mention'),
  mention: z.enum(['problems', 'terminal', 'folder']),
  /** On the chip and the block header: "problems", "terminal: npm test", "src/". */
  label: Short(500),
  text: z.string().check(z.maxLength(24_000)),
});
export type MentionAttachment = z.infer<typeof MentionAttachmentSchema>;

export const AttachmentSchema = z.union([ResourceAttachmentSchema, MentionAttachmentSchema, CodeAttachmentSchema]);
export type Attachment = CodeAttachment | ResourceAttachment | MentionAttachment;

export function isResourceAttachment(attachment: Attachment): attachment is ResourceAttachment {
  return 'kind' in attachment && attachment.kind === 'mcpResource';
}

export function isMentionAttachment(attachment: Attachment): attachment is MentionAttachment {
  return 'kind' in attachment && attachment.kind === 'mention';
}

/** How a resource chip is named in the message the model gets and on the chip's hover: `server:uri`. */
export function resourceLabel(attachment: Pick<ResourceAttachment, 'server' | 'uri'>): string {
  return `${attachment.server}:${attachment.uri}`;
}
/** Most chips one message carries; more would not fit a local model's context anyway. */
export const MAX_ATTACHMENTS = 20;

/** A file the last turn changed, for review: Keep it, Undo it, or open the diff (before ↔ now). */
export const ReviewFileSchema = z.object({
  /** The path the editor's file system knows (absolute). */
  path: Short(8000),
  /** Workspace-relative, for showing. */
  label: Short(4000),
  change: z.enum(['created', 'modified', 'deleted']),
  state: z.enum(['pending', 'kept', 'undone']),
});
export type ReviewFile = z.infer<typeof ReviewFileSchema>;

/** What the newest turn that edited files changed (the message that started it, and each file). */
export const TurnReviewSchema = z.object({
  messageId: z.int().check(z.positive()),
  files: z.array(ReviewFileSchema).check(z.maxLength(2000)),
});
export type TurnReview = z.infer<typeof TurnReviewSchema>;

export const ChatViewStateSchema = z.object({
  items: z.array(ChatItemSchema).check(z.maxLength(100_000)),
  /** A turn is running. */
  busy: z.boolean(),
  /** Transient status line ("Loading model…"); null when there is nothing to say. */
  status: z.nullable(Text),
  context: ContextUsageSchema,
  /** Counter for item ids; kept across resets so ids stay unique for the view's keyed DOM. */
  nextId: Count,
  /** Context chips waiting for the next message (absent = none). */
  attachments: z.optional(z.array(AttachmentSchema).check(z.maxLength(MAX_ATTACHMENTS))),
  /** The files the last turn changed, for Keep / Undo (absent = nothing to review). */
  review: z.optional(TurnReviewSchema),
});
export type ChatViewState = z.infer<typeof ChatViewStateSchema>;

/** Which item a compression mark is for: the `occurrence`-th (0-based) item of that kind whose key matches. */
export const CompressedTargetSchema = z.enum(['user', 'assistant', 'tool']);
export type CompressedTarget = z.infer<typeof CompressedTargetSchema>;

export const TurnEndReasonSchema = z.enum(['completed', 'task_completion', 'ask_question', 'max_rounds', 'cancelled', 'error']);

/** Everything that changes the chat view. The host maps core AgentEvents to these. */
export const ChatEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('turn_start'), text: Text, mode: TurnMode, images: ChatImages }),
  z.object({ type: z.literal('round_start') }),
  z.object({ type: z.literal('status'), text: Text }),
  z.object({ type: z.literal('thinking'), text: Text }),
  z.object({ type: z.literal('text'), text: Text }),
  z.object({ type: z.literal('tool_call'), callId: Short(200), name: Short(200), args: Text }),
  z.object({
    type: z.literal('approval_request'),
    callId: Short(200),
    title: Text,
    detail: Text,
    risk: Short(40),
  }),
  z.object({
    type: z.literal('approval_result'),
    callId: Short(200),
    approved: z.boolean(),
    scope: z.optional(Short(40)),
    reason: z.optional(Text),
  }),
  z.object({ type: z.literal('tool_progress'), callId: Short(200), text: Text }),
  z.object({
    type: z.literal('tool_result'),
    callId: Short(200),
    ok: z.boolean(),
    denied: z.boolean(),
    content: Text,
    durationMs: z.number().check(z.nonnegative()),
  }),
  z.object({ type: z.literal('notice'), text: Text }),
  z.object({ type: z.literal('error'), text: Text, actions: z.array(ErrorActionSchema).check(z.maxLength(5)) }),
  z.object({ type: z.literal('usage'), used: Count, cache: z.optional(CacheCountsSchema) }),
  z.object({ type: z.literal('context_limit'), available: z.nullable(Count) }),
  z.object({ type: z.literal('turn_end'), reason: TurnEndReasonSchema, result: z.optional(Text) }),
  z.object({ type: z.literal('reset') }),
  /**
   * A message was compressed. `key` is the user's or assistant's text, or the tool call id, of the original;
   * `text` is what the model sees now.
   */
  z.object({ type: z.literal('compressed'), target: CompressedTargetSchema, key: Text, occurrence: Count, text: Text }),
  /** A chip joins the pending ones (one with the same file and lines is not added twice). */
  z.object({ type: z.literal('attachment_add'), attachment: AttachmentSchema }),
  /** The × on the chip, or the message that carried it was sent. */
  z.object({ type: z.literal('attachment_remove'), id: Id }),
  /** The turn's message was saved as `messageId`: the newest user item without an id gets it (Restore to here). */
  z.object({ type: z.literal('message_stored'), messageId: z.int().check(z.positive()) }),
  /** The files to review (after a turn that edited files, or as the user keeps and undoes them); null: none. */
  z.object({ type: z.literal('review'), review: z.nullable(TurnReviewSchema) }),
]);
export type ChatEvent = z.infer<typeof ChatEventSchema>;
export type ChatEventType = ChatEvent['type'];

/** What the model currently knows about the user's work (the hot-context block), for the on-demand panel. */
export const HotContextViewSchema = z.object({
  /** The exact block injected before each model call; empty when there is nothing yet. */
  text: Text,
  filesRead: z.array(z.object({ path: Text, ranges: Short(2000) })).check(z.maxLength(1000)),
  filesModified: z.array(z.object({ path: Text, ranges: Short(2000) })).check(z.maxLength(1000)),
  todos: z.array(z.object({ text: Text, status: z.enum(['pending', 'in_progress', 'done']) })).check(z.maxLength(1000)),
  activeFile: z.nullable(Text),
  selection: z.nullable(Short(200)),
  /** What the workspace index gave the latest request, best first, and why each chunk was chosen. */
  retrieved: z.optional(
    z.array(z.object({ file: Text, lines: Short(100), score: z.number(), why: Short(2000) })).check(z.maxLength(200)),
  ),
});
export type HotContextView = z.infer<typeof HotContextViewSchema>;
