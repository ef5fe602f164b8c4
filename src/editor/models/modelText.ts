// Plain-words messages about the server and its models, with the next step to take. Pure (unit-tested).
import type { HarnessSettings } from '../settings/harnessSettings';
import { serverUrl } from '../settings/harnessSettings';
import { sameModel } from '../../core/modelNames';

export function serverName(settings: HarnessSettings): string {
  return settings.provider === 'ollama' ? 'Ollama server' : 'OpenAI-compatible server';
}

export { sameModel };

/** Why the list is not usable as it is, or undefined when all is well. */
export function modelListProblem(settings: HarnessSettings, models: readonly string[]): string | undefined {
  const url = serverUrl(settings);
  if (models.length === 0) {
    return settings.provider === 'ollama'
      ? `The Ollama server at ${url} has no models. Pull one, e.g. \`ollama pull qwen3\`, then refresh.`
      : `The server at ${url} lists no models. Load a model (LM Studio: Developer tab; llama.cpp: start llama-server with -m model.gguf), then refresh.`;
  }
  if (settings.model && !models.some((m) => sameModel(m, settings.model))) {
    return `The selected model "${settings.model}" is not on the ${serverName(settings)} at ${url}. Pick one of the listed models.`;
  }
  return undefined;
}

export function unreachableMessage(settings: HarnessSettings, detail: string): string {
  const url = serverUrl(settings);
  const start =
    settings.provider === 'ollama'
      ? 'Start it with `ollama serve`'
      : 'Start the server (LM Studio: Developer tab → Start Server; llama.cpp: llama-server --port 8080)';
  return `Could not reach the ${serverName(settings)} at ${url} (${detail}). ${start}, or change the address in Settings.`;
}

export function noModelMessage(settings: HarnessSettings): string {
  return `No model is selected and the ${serverName(settings)} at ${serverUrl(settings)} did not offer one. Choose one with "Local Harness: Select Model".`;
}

/** One line about a model for the picker: context length and what it can do. */
export function modelDetail(info: { contextLength?: number; loadedContextLength?: number; capabilities?: string[] }): string {
  const parts: string[] = [];
  if (info.loadedContextLength) parts.push(`loaded with ${info.loadedContextLength.toLocaleString('en-US')} tokens of context`);
  else if (info.contextLength) parts.push(`up to ${info.contextLength.toLocaleString('en-US')} tokens of context`);
  const caps = (info.capabilities ?? []).filter((c) => c !== 'completion');
  if (caps.length) parts.push(caps.join(', '));
  return parts.join(' · ');
}

/** An HTTP 401 from the server, as the providers word it ("… answered HTTP 401: …"). */
export function isUnauthorized(message: string): boolean {
  return /\bHTTP 401\b/.test(message);
}

/** Why a server without a stored key says 401, and what to do. */
export function missingKeyNotice(origin: string): string {
  return `This server (${origin}) has no API key stored; Local Harness only sends a key to the server it was entered for — run "Local Harness: Set API Key".`;
}
