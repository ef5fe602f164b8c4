// Answers what servers ask of the client: roots, elicitation and sampling. Each is declared (and handled)
// only when the host lent the matching port, so a server never asks for what nobody can give.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationAnswer, McpClientFeatures, SamplingMessage, SamplingRequest } from './clientFeatures';
import { ElicitationSchemaError, parseElicitationSchema, validateElicitationAnswer } from './elicitationSchema';
import type { SamplingGate } from './samplingGate';
import type { McpSdk } from './sdk';

export interface FeatureContext {
  server: string;
  features: McpClientFeatures;
  samplingGate: SamplingGate;
  log(line: string): void;
}

/** JSON-RPC code the MCP spec uses for "the user rejected the sampling request". */
export const USER_REJECTED = -1;

export function samplingEnabled(features: McpClientFeatures | undefined): boolean {
  return !!features?.approveSampling && !!features.sample;
}

export function clientCapabilities(features: McpClientFeatures | undefined): ClientCapabilities {
  return {
    ...(features?.roots && { roots: { listChanged: true } }),
    // `form: {}` says we take forms; leaving out `url` keeps servers from sending URL-mode requests.
    ...(features?.elicit && { elicitation: { form: {} } }),
    ...(samplingEnabled(features) && { sampling: {} }),
  };
}

export function installFeatureHandlers(client: Client, sdk: McpSdk, ctx: FeatureContext): void {
  const { features, server, log } = ctx;
  const roots = features.roots;
  if (roots) {
    client.setRequestHandler(sdk.ListRootsRequestSchema, () => {
      const list = roots().map((r) => ({ uri: r.uri, ...(r.name !== undefined && { name: r.name }) }));
      log(`server asked for the roots: ${list.length} announced`);
      return { roots: list };
    });
  }

  const elicit = features.elicit;
  if (elicit) {
    client.setRequestHandler(sdk.ElicitRequestSchema, async (request, extra) => {
      const params = request.params;
      if (params.mode === 'url') {
        log('elicitation in URL mode is not supported; declined');
        return { action: 'decline' };
      }
      let fields;
      try {
        fields = parseElicitationSchema(params.requestedSchema);
      } catch (err) {
        const why = err instanceof ElicitationSchemaError ? err.message : String(err);
        log(`elicitation refused: ${why}`);
        throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `cannot show this elicitation form: ${why}`);
      }
      log(`server asks for input: ${params.message}`);
      let answer: ElicitationAnswer;
      try {
        answer = await elicit({ server, message: params.message, fields, requestedSchema: params.requestedSchema as Record<string, unknown> }, extra.signal);
      } catch (err) {
        log(`elicitation form failed (${(err as Error).message}); answered cancel`);
        return { action: 'cancel' };
      }
      if (answer?.action === 'decline') return { action: 'decline' };
      if (answer?.action !== 'accept') return { action: 'cancel' };
      const check = validateElicitationAnswer(fields, answer.content);
      if (!check.ok) {
        log(`elicitation answer does not match the requested schema (${check.problems.join('; ')}); answered cancel instead of sending it`);
        return { action: 'cancel' };
      }
      log('elicitation answered');
      return { action: 'accept', content: check.content };
    });
  }

  const { approveSampling, sample } = features;
  if (approveSampling && sample) {
    client.setRequestHandler(sdk.CreateMessageRequestSchema, async (request, extra) => {
      const refusal = ctx.samplingGate.check(server);
      if (refusal) {
        log(refusal);
        throw new sdk.McpError(sdk.ErrorCode.InvalidRequest, refusal);
      }
      const sampling = toSamplingRequest(server, request.params);
      let approved = false;
      try {
        approved = (await approveSampling(sampling)) === true;
      } catch (err) {
        log(`asking to approve sampling failed: ${(err as Error).message}`);
      }
      if (!approved) {
        log('sampling request declined by the user');
        throw new sdk.McpError(USER_REJECTED, 'the user declined the sampling request');
      }
      log(`sampling approved (max ${sampling.maxTokens} tokens)`);
      const result = await sample(sampling, extra.signal);
      log(`sampling answered by ${result.model} (${result.stopReason}, ${result.text.length} characters)`);
      return { role: 'assistant' as const, content: { type: 'text' as const, text: result.text }, model: result.model, stopReason: result.stopReason };
    });
  }
}

interface RawSamplingParams {
  messages: Array<{ role: string; content: unknown }>;
  systemPrompt?: string | undefined;
  maxTokens: number;
  temperature?: number | undefined;
  stopSequences?: string[] | undefined;
  modelPreferences?: { hints?: Array<{ name?: string | undefined }> | undefined } | undefined;
}

export function toSamplingRequest(server: string, params: RawSamplingParams): SamplingRequest {
  const messages: SamplingMessage[] = params.messages.map((m) => ({
    role: m.role === 'assistant' ? 'assistant' : 'user',
    text: (Array.isArray(m.content) ? m.content : [m.content]).map(partToText).join('\n'),
  }));
  const hints = (params.modelPreferences?.hints ?? []).map((h) => h.name).filter((n): n is string => typeof n === 'string' && n !== '');
  return {
    server,
    messages,
    ...(params.systemPrompt !== undefined && { systemPrompt: params.systemPrompt }),
    maxTokens: params.maxTokens,
    ...(params.temperature !== undefined && { temperature: params.temperature }),
    ...(params.stopSequences?.length && { stopSequences: params.stopSequences }),
    modelHints: hints,
  };
}

function partToText(part: unknown): string {
  if (part === null || typeof part !== 'object') return String(part ?? '');
  const p = part as Record<string, unknown>;
  switch (p.type) {
    case 'text':
      return typeof p.text === 'string' ? p.text : '';
    case 'image':
    case 'audio':
      return `[${p.type}: ${typeof p.mimeType === 'string' ? p.mimeType : 'unknown type'}]`;
    case 'tool_use':
      return `[tool call: ${typeof p.name === 'string' ? p.name : 'unnamed'}]`;
    case 'tool_result':
      return '[tool result]';
    default:
      return `[${typeof p.type === 'string' ? p.type : 'unknown'} content]`;
  }
}
