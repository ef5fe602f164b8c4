// Wraps one MCP tool as a core Tool: the server's JSON Schema goes to the model, arguments are checked
// against it before approval and before the call, and every outcome becomes a result the model can act on.
import { z } from 'zod';
import { fail, ok, type RiskLevel, type Tool, type ToolContext } from '../core/tools/tool';
import { contentToText, type ToolCallOutput } from './content';
import type { ArgumentValidator, McpToolDefinition } from './toolSchema';
import type { McpServerConfig } from './types';

/** What a tool needs from its server: the manager routes to whatever connection is current. */
export interface McpToolCaller {
  readonly serverName: string;
  call(mcpName: string, args: Record<string, unknown>, options: { signal: AbortSignal; onProgress?: (message: string) => void }): Promise<ToolCallOutput>;
}

/** The registry validates with zod first; the real check is the server's JSON Schema, inside the tool. */
const anyObject = z.record(z.string(), z.unknown());
type Args = z.infer<typeof anyObject>;

const MAX_APPROVAL_ARGS_CHARS = 4000;

/** Per-tool override, then the server's risk, then the server's own readOnlyHint; otherwise it may write. */
export function riskFor(definition: McpToolDefinition, config: Pick<McpServerConfig, 'risk' | 'tools'>): RiskLevel {
  const override = config.tools[definition.name]?.risk;
  if (override) return override;
  if (config.risk) return config.risk;
  return definition.annotations?.readOnlyHint === true ? 'read' : 'write';
}

export interface McpToolParams {
  registeredName: string;
  definition: McpToolDefinition;
  validate: ArgumentValidator;
  risk: RiskLevel;
  caller: McpToolCaller;
}

export function createMcpTool(params: McpToolParams): Tool<typeof anyObject> {
  const { registeredName, definition, validate, risk, caller } = params;
  const server = caller.serverName;
  const invalid = (args: Args): string | undefined => {
    const problems = validate(args);
    return problems ? `Invalid arguments for ${registeredName}: ${problems}. Send arguments that match the tool's JSON Schema.` : undefined;
  };
  return {
    name: registeredName,
    description: definition.description?.trim() || definition.title || `Tool "${definition.name}" of the MCP server "${server}".`,
    schema: anyObject,
    risk,
    jsonSchema: definition.inputSchema,
    describeForApproval(args: Args) {
      // Throwing here turns into a tool error before anyone is asked to approve a call that cannot work.
      const problem = invalid(args);
      if (problem) throw new Error(problem);
      let shown = JSON.stringify(args, null, 2);
      if (shown.length > MAX_APPROVAL_ARGS_CHARS) shown = `${shown.slice(0, MAX_APPROVAL_ARGS_CHARS)}\n… (${shown.length - MAX_APPROVAL_ARGS_CHARS} more characters)`;
      return {
        title: `Run MCP tool "${definition.name}" of server "${server}"`,
        detail: `${definition.description?.trim() ? `${definition.description.trim()}\n\n` : ''}Arguments:\n${shown}`,
      };
    },
    async invoke(args: Args, ctx: ToolContext) {
      const problem = invalid(args);
      if (problem) return fail(problem);
      let result: ToolCallOutput;
      try {
        result = await caller.call(definition.name, args, { signal: ctx.signal, ...(ctx.onProgress && { onProgress: ctx.onProgress }) });
      } catch (err) {
        return fail(err instanceof Error ? err.message : String(err));
      }
      const text = contentToText(result);
      return result.isError ? fail(`The MCP tool "${definition.name}" of server "${server}" reported an error: ${text}`) : ok(text);
    },
  };
}
