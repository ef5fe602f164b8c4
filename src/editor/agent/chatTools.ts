// The chat's one tool registry, made at activation and handed to the session factory and to MCP, whose servers add
// their tools to it (as the CLI makes its registry first and hands it to MCP). The built-in tools come with the
// lazily loaded turn engine: they join the first time the registry is needed whole, so activation loads nothing,
// and they always come before any server's tools.
import { ToolRegistry } from '../../core/tools/registry';
import type { TurnEngine } from '../engine/engineLoader';

export class ChatTools {
  readonly registry = new ToolRegistry();
  private builtins: Promise<ToolRegistry> | undefined;

  constructor(private readonly loadEngine: () => Promise<TurnEngine>) {}

  /** The registry with the built-in tools in it (the first call loads the engine; a failed load is tried again). */
  whole(): Promise<ToolRegistry> {
    this.builtins ??= this.loadEngine().then(
      (engine) => engine.registerBuiltins(this.registry),
      (err: unknown) => {
        this.builtins = undefined;
        throw err;
      },
    );
    return this.builtins;
  }
}
