// What the host lends MCP servers beyond tools: roots, a user to ask (elicitation), a model to sample.
// Each port is optional; without it the client does not declare the capability, so servers do not ask.

/** One workspace folder announced to servers as a root. */
export interface McpRoot {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}

/** A primitive field of an elicitation form, as the MCP spec restricts `requestedSchema` properties. */
export type ElicitField =
  | { kind: 'string'; name: string; title?: string; description?: string; required: boolean; default?: string; minLength?: number; maxLength?: number; format?: 'email' | 'uri' | 'date' | 'date-time' }
  | { kind: 'number'; name: string; title?: string; description?: string; required: boolean; default?: number; integer: boolean; minimum?: number; maximum?: number }
  | { kind: 'boolean'; name: string; title?: string; description?: string; required: boolean; default?: boolean }
  | { kind: 'enum'; name: string; title?: string; description?: string; required: boolean; default?: string; options: Array<{ value: string; label: string }> }
  | { kind: 'multiEnum'; name: string; title?: string; description?: string; required: boolean; default?: string[]; options: Array<{ value: string; label: string }>; minItems?: number; maxItems?: number };

export interface ElicitationRequest {
  server: string;
  message: string;
  /** The form, already read from `requestedSchema`; the raw schema is kept to validate the answer. */
  fields: ElicitField[];
  requestedSchema: Record<string, unknown>;
}

export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** Shows the form to the user. Cancel/close → `cancel`; an explicit "no" → `decline`. A throw counts as cancel. */
export type ElicitationPort = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

export interface SamplingMessage {
  role: 'user' | 'assistant';
  /** Text of the message; non-text parts are described in brackets (e.g. `[image: image/png]`). */
  text: string;
}

export interface SamplingRequest {
  server: string;
  messages: SamplingMessage[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  /** The server's model hints, for display only: the chat's own model always answers. */
  modelHints: string[];
}

/** Asked before every sampling request is run. Anything but `true` (including a throw) refuses. */
export type SamplingApprovalPort = (request: SamplingRequest) => Promise<boolean>;

export interface SamplingResult {
  model: string;
  text: string;
  stopReason: 'endTurn' | 'maxTokens' | 'stopSequence';
}

/** Answers an approved sampling request with the chat's model. */
export type SamplingPort = (request: SamplingRequest, signal: AbortSignal) => Promise<SamplingResult>;

export interface McpClientFeatures {
  /** The workspace folders; an untrusted workspace returns none. */
  roots?: () => readonly McpRoot[];
  elicit?: ElicitationPort;
  /** Sampling: declared only when both the approval and the model are provided. */
  approveSampling?: SamplingApprovalPort;
  sample?: SamplingPort;
  /** Sampling requests each server may make per minute (default 10); more are refused with a clear error. */
  samplingPerMinute?: number;
}
