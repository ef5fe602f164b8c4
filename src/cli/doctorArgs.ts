// `localharness doctor`: the setup check's options (the server flags of `run`, and what decides the protocol, the
// window and the embedding model a session would use).
import { firstByteTimeoutMs, nonEmpty, positiveInt, providerOf, toolProtocolOf } from './argValues';
import { UsageError } from './usageError';

export interface DoctorOptions {
  command: 'doctor';
  provider: 'ollama' | 'openai';
  baseUrl?: string;
  model?: string;
  numCtx?: number;
  toolProtocol?: 'native' | 'xml' | 'auto';
  embedModel?: string;
  /** JSON file with {agent, context, instructions}: its agent.toolProtocol counts like `run`'s. */
  config?: string;
  /** Keep the result here (also LOCALHARNESS_DB); `run --db` starts from it. */
  db?: string;
  json: boolean;
  apiKey?: string;
  firstByteTimeoutMs: number;
}

const DOCTOR_OPTIONS = new Set(['provider', 'base-url', 'model', 'num-ctx', 'tool-protocol', 'embed-model', 'config', 'db', 'json', 'first-byte-timeout']);

export function parseDoctorCommand(rest: string[], values: Record<string, string | boolean | string[] | undefined>, env: NodeJS.ProcessEnv): DoctorOptions {
  const foreign = Object.keys(values).find((name) => values[name] !== undefined && !DOCTOR_OPTIONS.has(name));
  if (foreign) throw new UsageError(`--${foreign} does not apply to \`doctor\``);
  if (rest.length) throw new UsageError(`\`doctor\` takes no arguments, got ${rest.map((r) => JSON.stringify(r)).join(' ')}`);
  const str = (name: string) => nonEmpty(values, name);
  const toolProtocol = toolProtocolOf(str('tool-protocol'));
  const numCtx = positiveInt('--num-ctx', str('num-ctx'));
  const apiKey = env.LOCALHARNESS_API_KEY;
  const pick = (flag: string, key: keyof DoctorOptions) => (str(flag) !== undefined ? { [key]: str(flag) } : {});
  return {
    command: 'doctor',
    provider: providerOf(str('provider')),
    json: !!values.json,
    firstByteTimeoutMs: firstByteTimeoutMs(str('first-byte-timeout')),
    ...pick('base-url', 'baseUrl'),
    ...pick('model', 'model'),
    ...pick('embed-model', 'embedModel'),
    ...pick('config', 'config'),
    ...pick('db', 'db'),
    ...(numCtx !== undefined && { numCtx }),
    ...(toolProtocol !== undefined && { toolProtocol }),
    ...(apiKey && { apiKey }),
  };
}
