// The text of `localharness --help`.
export const USAGE = `Usage:
  localharness run [--provider ollama|openai] [--base-url URL] [--model NAME] [--workspace DIR]
                   [--max-rounds N] [--mode agent|plan|ask] [--approve none|read|all] [--allow-sensitive] [--num-ctx N] [--think] [--thinking-budget N] [--json]
                   [--db FILE] [--session ID] [--mcp-config FILE] [--tool-protocol native|xml|auto]
                   [--trust-mcp-config] [--command-env NAME]...
                   [--fallback-model NAME]... [--max-tools N] [--embed-model NAME] [--config FILE]
                   [--image FILE]... [--vision auto|on|off]
                   [--planner-model NAME --executor-model NAME [--planner-base-url URL] [--executor-base-url URL]
                    [--planner-provider KIND] [--executor-provider KIND]]
                   [--allow-sampling] [--sandbox required|auto|off] [--allow-network]
                   [--allow-network-for PREFIX]... [--sandbox-write DIR]...
                   [--max-processes N] [--max-file-size-mb N] [--max-memory-mb N] "TASK"
  localharness run --session ID --planner-model NAME --executor-model NAME [...] --resume
  localharness acp [the options of run, without TASK, --json, --session and --resume]
                   an Agent Client Protocol agent on stdin/stdout for Zed, JetBrains, Neovim… (see README)
  localharness doctor [--provider …] [--base-url URL] [--model NAME] [--num-ctx N] [--tool-protocol …]
                      [--embed-model NAME] [--config FILE] [--db FILE] [--json]
  localharness sessions [--db FILE] [--json]
  localharness sessions messages --session ID [--db FILE] [--json]
  localharness sessions rewind --session ID (--to MESSAGE | --undo) [--force] [--workspace DIR] [--db FILE] [--json]
  localharness index [--workspace DIR] [--db FILE] [--provider …] [--base-url URL] [--model NAME]
                     [--embed-model NAME] [--mode full|embed|metadata] [--force] [--remove] [--json] PATH...
  localharness query [--workspace DIR] [--db FILE] [--provider …] [--base-url URL] [--embed-model NAME]
                     [--k N] [--json] "TEXT"
  localharness mcp list --mcp-config FILE [--workspace DIR] [--json]
  localharness mcp resource --mcp-config FILE [--workspace DIR] [--out FILE] [--json] SERVER URI|TEMPLATE [--arg NAME=VALUE]...
  localharness mcp prompt --mcp-config FILE [--workspace DIR] [--json] SERVER PROMPT [--arg NAME=VALUE]...
  localharness mcp login  --mcp-config FILE SERVER
  localharness mcp logout --mcp-config FILE SERVER
  localharness --help | --version

Options:
  --provider      ollama (default) or openai (LM Studio, llama.cpp server, vLLM)
  --base-url      server URL (default http://127.0.0.1:11434 for ollama, http://127.0.0.1:1234/v1 for openai)
  --model         model name (default: the first model the server lists)
  --workspace     folder the tools may touch (default: current directory)
  --max-rounds    model calls per turn before giving up (default 20)
  --approve       risk levels that run without asking: none, read (default), all
  --mode          agent (default), plan (read tools only: prints a plan, changes nothing) or ask (no tools).
                  TASK "/name more text" runs the prompt file .github/prompts/name.prompt.md or .localharness/prompts/name.md
  --allow-sensitive  with --approve all: also change sensitive files without asking (.vscode/, .git/, CI
                  files, AGENTS.md and .localharness/, package.json scripts, shell profiles…). Without it
                  such a change is asked on a terminal and denied when there is none, even under --approve all
  --num-ctx       context window to request (Ollama num_ctx)
  --thinking-budget  most thinking tokens per model call (default 2000; 0: no budget). Past it the reply is
                  stopped and asked again without thinking, keeping the partial reasoning
  --json          one JSON object per line for every event
  --tool-protocol native tool calls, xml (<tool> blocks in text), or auto (default: native when the model supports tools)
  --fallback-model another model on the same server to continue with when the primary keeps failing (repeatable)
  --image         an image file (PNG, JPEG, WebP, GIF; at most 4 MB) the model sees with the task (repeatable);
                  refused, with nothing sent, when the model cannot see images
  --vision        whether the model sees images: auto (ask the server, the default), on or off
  --db, --session store the session in a SQLite file / continue a stored session (also LOCALHARNESS_DB)
  --mcp-config    MCP servers file ({"servers": {...}} or {"mcpServers": {...}}). The workspace is announced to
                  them as their root. A server asking for input (elicitation) is answered on the terminal, and
                  declined when there is none
  --allow-sampling  let MCP servers have the model answer their prompts (sampling) without asking. Without it
                  each request is asked on a terminal and refused when there is none
  --command-env   pass the variable NAME to commands too (repeatable). Commands see only PATH, HOME, USER,
                  SHELL, LANG/LC_*, TERM, TMPDIR, TZ, toolchain paths (JAVA_HOME, GOPATH…) and these; never
                  LOCALHARNESS_API_KEY or other keys and tokens in your environment
  --trust-mcp-config  start the --mcp-config servers without asking even when the file changed since your
                  last run, or is in the workspace and new (otherwise asked on a terminal, refused without
                  one; also for mcp list, resource and prompt)
  --max-tools     offer at most N tools per request when they would not fit (default 15), chosen by relevance
  --embed-model   embedding model on the same server for choosing tools (default: keyword ranking)
  --config        JSON file {"agent": {...}, "context": {...}, "instructions": "..."} (see README: weak models, context window)
  --planner-model, --executor-model  split each turn between two models (both needed): the planner plans the
                  steps and writes the answer, the executor calls the tools step by step. If anything fails, the
                  turn continues in the ordinary loop with --model (default: the planner model)
  --planner-base-url, --executor-base-url  their servers (default --base-url)
  --planner-provider, --executor-provider  their kind of server when it is not --provider (ollama|openai)
  --sandbox       how commands are confined (default required): run_command runs in the OS sandbox
                  (bubblewrap on Linux, sandbox-exec on macOS): it writes only inside the workspace and a
                  private temporary folder, sensitive files (.git, .vscode, CI files, agent rules) stay
                  read-only, and it has no network. Without a sandbox, required asks for every command (not
                  even --approve all runs one); auto then follows --approve; off never uses the sandbox
  --allow-network let every sandboxed command use the network
  --allow-network-for  let commands starting with PREFIX use the network (repeatable, e.g. "npm install")
  --sandbox-write let sandboxed commands write DIR too (repeatable), e.g. a package cache: ~/.cargo. npm's
                  cache and Go's build cache go to the private temporary folder unless opened this way
  --max-processes N, --max-file-size-mb N, --max-memory-mb N
                  limits for each sandboxed command (0: none): processes and threads (default 1024; not
                  applied to root), the largest file it writes (default 1024 MB), memory per process
                  (default 4096 MB)
  --resume        with --session and the planner flags: continue that session's planned run, cut off by
                  Ctrl-C or a crash, at its first unfinished step (no TASK; finished steps are not run again)

  API key: set LOCALHARNESS_API_KEY for servers that need one.

Checkpoints (stored in the --db file by every \`run\` that has one):
  sessions messages  the messages you sent in a session, numbered, with how many files each turn changed
  sessions rewind    put back the files the agent changed since message --to N (exact bytes; files it created are
                  deleted) and cut the stored conversation before that message. Files changed since the agent
                  wrote them are listed and nothing happens, unless --force. --undo takes the last rewind back.
                  Only files inside --workspace (default: current directory) are ever written

Workspace index (stored in the --db file; \`run\` retrieves from it when the file has an index):
  index PATH...   index files and folders (relative to --workspace; a folder: its text files, honouring
                  .gitignore) into the --db file
  --mode          full (default: chunks, vectors and the model's summaries), embed (chunks and vectors),
                  metadata (size, language, outline only)
  --embed-model   (index, query) embedding model on the same server; without one, retrieval uses keywords.
                  query and run default to the model the index was built with
  --force         index again even when a file did not change
  --remove        take the PATHs out of the index instead (a folder: every indexed file under it)
  query "TEXT"    print the indexed chunks that best match TEXT, best first (--json: one object per line)
  --k             how many chunks query prints (default 5)

Setup check (sends a handful of short requests to the server, said before they are sent):
  doctor          checks the server (kind, version, models), the window it really runs, whether the model
                  calls tools natively, as text or not at all, its speed and prompt cache, and the embedding
                  model; prints each finding with the fix and an overall verdict (--json: one document). With
                  --db the result is kept, and \`run --db\` starts from it (text-based tool calls for a model
                  that failed the tool probe, a smaller window budgeted from the first request). Exit 1 when
                  the setup is not usable

MCP servers of a config file, without the agent (servers start, answer, and are stopped again):
  mcp list        each server's state (or error), tools, resources, resource templates and prompts
                  (--json: one JSON document). Exits 1 only when no server starts
  mcp resource    print a resource's text; binary parts are described in one line unless --out FILE
                  (then the content, binary parts decoded, goes to FILE). A resource template (its name or
                  uriTemplate) is filled from --arg NAME=VALUE
  mcp prompt      print a prompt's messages, its arguments given as --arg NAME=VALUE (repeatable)
  mcp login       sign in to an HTTP server that uses OAuth: the browser opens (the address is also printed)
                  and redirects back to 127.0.0.1; the tokens go to ~/.config/localharness/mcp-auth.json
                  (only you can read it). run and mcp sign in by themselves on a terminal or with $BROWSER set
  mcp logout      forget a server's tokens and client registration`;
