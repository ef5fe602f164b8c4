// `${workspaceFolder}`, `${userHome}` and `${env:NAME}` in server definitions, as VS Code's mcp.json has them.

export interface McpConfigVariables {
  /** Absolute path of the (first) workspace folder; relative `cwd`s resolve against it. */
  workspaceFolder?: string;
  userHome?: string;
  /** Environment for `${env:NAME}`; defaults to the process environment. */
  env?: Record<string, string | undefined>;
}

export class ExpansionError extends Error {}

/**
 * Expand the variables in one string. Unset environment variables expand to "" (as in VS Code) and are reported
 * through `onWarning`; variables we don't support (e.g. `${input:…}`) are an error rather than a silent blank.
 */
export function expandVariables(value: string, vars: McpConfigVariables, onWarning: (message: string) => void): string {
  return value.replace(/\$\{([^}]*)\}/g, (_match, inner: string) => {
    const name = inner.trim();
    if (name === 'workspaceFolder' || name === 'workspaceRoot') {
      if (!vars.workspaceFolder) throw new ExpansionError('uses ${workspaceFolder}, but no workspace folder is open');
      return vars.workspaceFolder;
    }
    if (name === 'userHome') {
      if (!vars.userHome) throw new ExpansionError('uses ${userHome}, but the home folder is unknown');
      return vars.userHome;
    }
    if (name.startsWith('env:')) {
      const key = name.slice(4);
      const env = vars.env ?? process.env;
      const found = env[key];
      if (found === undefined) onWarning(`environment variable ${key} is not set; \${env:${key}} expands to ""`);
      return found ?? '';
    }
    throw new ExpansionError(
      `uses \${${name}}, which is not supported (supported: \${workspaceFolder}, \${userHome}, \${env:NAME}); put the value in "env" or use \${env:NAME}`,
    );
  });
}
