// `--config FILE`: the agent and context knobs the editor exposes as settings, as one JSON file.
import { readFileSync } from 'node:fs';
import { parseTurnHooksSettings, type TurnHooksSettingsInput } from '../core/resilience/turnHooksSettings';
import { parseContextSettings, type ContextSettingsInput } from '../core/window/contextSettings';
import { UsageError } from './args';
import { checkpointLimitBytes } from '../core/checkpoints/checkpointSettings';

export interface CliConfig {
  agent: TurnHooksSettingsInput;
  context: ContextSettingsInput;
  instructions?: string;
  /** Bytes the turn checkpoints of the database may hold (`{"checkpoints": {"maxSizeMB": N}}`). */
  checkpointLimitBytes?: number;
}

export function loadCliConfig(path: string | undefined): CliConfig {
  if (!path) return { agent: {}, context: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--config ${path}: ${(e as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`--config ${path}: expected a JSON object`);
  const { agent = {}, context = {}, instructions, checkpoints, ...rest } = raw as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw new UsageError(`--config ${path}: unknown key(s) ${unknown.join(', ')} (use agent, context, instructions, checkpoints)`);
  let limit: number | undefined;
  try {
    parseTurnHooksSettings(agent);
    parseContextSettings(context);
    if (checkpoints !== undefined) limit = checkpointLimitBytes(checkpoints);
  } catch (e) {
    throw new UsageError(`--config ${path}: ${(e as Error).message}`);
  }
  if (instructions !== undefined && typeof instructions !== 'string') throw new UsageError(`--config ${path}: "instructions" must be a string`);
  return {
    agent: agent as TurnHooksSettingsInput,
    context: context as ContextSettingsInput,
    ...(instructions !== undefined && { instructions }),
    ...(limit !== undefined && { checkpointLimitBytes: limit }),
  };
}
