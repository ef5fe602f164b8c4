// `--config FILE`: the agent and context knobs the editor exposes as settings, as one JSON file.
import { readFileSync } from 'node:fs';
import { parseTurnHooksSettings, type TurnHooksSettingsInput } from '../core/resilience/turnHooksSettings';
import { parseContextSettings, type ContextSettingsInput } from '../core/context/contextSettings';
import { UsageError } from './args';

export interface CliConfig {
  agent: TurnHooksSettingsInput;
  context: ContextSettingsInput;
  instructions?: string;
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
  const { agent = {}, context = {}, instructions, ...rest } = raw as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw new UsageError(`--config ${path}: unknown key(s) ${unknown.join(', ')} (use agent, context, instructions)`);
  try {
    parseTurnHooksSettings(agent);
    parseContextSettings(context);
  } catch (e) {
    throw new UsageError(`--config ${path}: ${(e as Error).message}`);
  }
  if (instructions !== undefined && typeof instructions !== 'string') throw new UsageError(`--config ${path}: "instructions" must be a string`);
  return { agent: agent as TurnHooksSettingsInput, context: context as ContextSettingsInput, ...(instructions !== undefined && { instructions }) };
}
