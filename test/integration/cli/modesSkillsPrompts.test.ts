// Issue 33 A through the real CLI process, against wire-faithful fake servers of both formats: Plan mode offers read
// tools only and runs no write even when the model calls one (the file stays, the model is told), Ask mode offers
// no tools, the system prompt is the same bytes in every mode, a skill's body reaches the model only after
// load_skill (a user-folder skill's file through load_skill {name, file}), and a prompt file runs as `/name`.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, messagesOf, toolResults } from '../../helpers/cli/wire';
import type { ChatBody, FakeServerHandle } from '../../helpers/fakeLlm';

const READ_TOOLS = new Set(['read_file', 'list_directory', 'search_files', 'todo_read', 'todo_write', 'task_completion', 'ask_question', 'tool_search', 'load_skill']);
const SKILL_BODY = 'Run ./deploy.sh --dry-run first, then ./deploy.sh with the tag.';

function setup(): { ws: string; home: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-modes-'));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  writeFileSync(path.join(ws, 'app.ts'), 'export const answer = 41;\n');
  return { ws, home };
}

function toolNames(body: ChatBody): string[] {
  const tools = ((body as { tools?: Array<{ function: { name: string } }> }).tools ?? []);
  return tools.map((t) => t.function.name);
}

function systemOf(body: ChatBody): string {
  return messagesOf(body as never).find((m) => m.role === 'system')!.content;
}

function lastUser(body: ChatBody): string {
  return messagesOf(body as never).filter((m) => m.role === 'user').at(-1)!.content;
}

for (const wire of WIRE_FORMATS) {
  describe(`CLI modes, skills and prompt files over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    const start: typeof wire.start = async (script, name) => {
      const s = await wire.start(script, name);
      servers.push(s);
      return s;
    };
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    test('plan mode: read tools only, a write the model makes up is refused, the plan is printed; same system prompt as agent', async () => {
      const { ws, home } = setup();
      const env = { HOME: home };
      const server = await start(
        [
          { toolCalls: [{ name: 'read_file', arguments: { path: 'app.ts' } }] },
          { toolCalls: [{ name: 'write_file', arguments: { path: 'app.ts', content: 'export const answer = 42;\n' } }] },
          { text: '1. In app.ts change `answer` from 41 to 42.\n2. Run the tests.' },
          { text: 'Agent here.' },
        ],
        'plan',
      );
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', '--mode', 'plan', 'Make the answer 42'], { cwd: ws, env });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(path.join(ws, 'app.ts'), 'utf8'), 'export const answer = 41;\n', 'the file is unchanged');
      assert.match(run.stdout, /change `answer` from 41 to 42/);
      for (const request of server.requests.slice(0, 3)) {
        const names = toolNames(request);
        assert.ok(names.includes('read_file'), names.join());
        assert.deepEqual(names.filter((n) => !READ_TOOLS.has(n)), [], 'no write or execute tool is offered');
      }
      assert.match(toolResults(server.requests[1]!)[0]!, /41/);
      assert.match(toolResults(server.requests[2]!)[1]!, /Not run: this is Plan mode/);
      assert.match(lastUser(server.requests[0]!), /# Mode: Plan/);
      // The same workspace in Agent mode: the system prompt is byte for byte the one Plan mode sent.
      const agent = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', 'Say hi'], { cwd: ws, env });
      assert.equal(agent.code, 0, agent.stderr);
      assert.equal(systemOf(server.requests[3]!), systemOf(server.requests[0]!));
      assert.ok(toolNames(server.requests[3]!).includes('write_file'));
      assert.doesNotMatch(lastUser(server.requests[3]!), /# Mode/);
    });

    test('ask mode offers no tools and a called tool does not run', async () => {
      const { ws, home } = setup();
      const server = await start(
        [{ toolCalls: [{ name: 'write_file', arguments: { path: 'app.ts', content: 'x' } }] }, { text: 'It exports answer = 41.' }],
        'ask',
      );
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', '--json', '--mode', 'ask', 'What does app.ts export?'], { cwd: ws, env: { HOME: home } });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(toolNames(server.requests[0]!), []);
      assert.match(lastUser(server.requests[0]!), /# Mode: Ask/);
      assert.match(toolResults(server.requests[1]!)[0]!, /Not run: this is Ask mode/);
      assert.equal(readFileSync(path.join(ws, 'app.ts'), 'utf8'), 'export const answer = 41;\n');
    });

    test('a skill is listed by name and description; its body enters only after load_skill; a user-folder file through load_skill', async () => {
      const { ws, home } = setup();
      const skill = path.join(ws, '.agents', 'skills', 'deploy');
      mkdirSync(skill, { recursive: true });
      writeFileSync(path.join(skill, 'SKILL.md'), `---\nname: deploy\ndescription: How to deploy this app safely\n---\n# Deploying\n${SKILL_BODY}\n`);
      writeFileSync(path.join(skill, 'checklist.md'), 'workspace checklist\n');
      const userSkill = path.join(home, '.localharness', 'skills', 'style');
      mkdirSync(userSkill, { recursive: true });
      writeFileSync(path.join(userSkill, 'SKILL.md'), '---\nname: house-style\ndescription: "The house code style"\n---\nUse tabs.\n');
      writeFileSync(path.join(userSkill, 'rules.txt'), 'NEVER use var\n');
      const server = await start(
        [
          { toolCalls: [{ name: 'load_skill', arguments: { name: 'deploy' } }] },
          { toolCalls: [{ name: 'load_skill', arguments: { name: 'house-style', file: 'rules.txt' } }] },
          { text: 'Deployed.' },
        ],
        'skills',
      );
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'read', 'Deploy it'], { cwd: ws, env: { HOME: home } });
      assert.equal(run.code, 0, run.stderr);
      const first = JSON.stringify(server.requests[0]!.messages);
      assert.match(systemOf(server.requests[0]!), /\ndeploy: How to deploy this app safely/);
      assert.match(systemOf(server.requests[0]!), /\nhouse-style: The house code style/);
      assert.ok(!first.includes(SKILL_BODY), 'the body is not sent before load_skill');
      assert.ok(toolNames(server.requests[0]!).includes('load_skill'));
      const loaded = toolResults(server.requests[1]!)[0]!;
      assert.ok(loaded.includes(SKILL_BODY), loaded);
      assert.match(loaded, /- checklist\.md/);
      assert.match(toolResults(server.requests[2]!)[1]!, /NEVER use var/);
      assert.equal(systemOf(server.requests[2]!), systemOf(server.requests[0]!));
    });

    test('a prompt file runs as /name with its mode and the typed text in its placeholder', async () => {
      const { ws, home } = setup();
      mkdirSync(path.join(ws, '.github', 'prompts'), { recursive: true });
      writeFileSync(path.join(ws, '.github', 'prompts', 'explain.prompt.md'), '---\ndescription: Explain a file\nmode: ask\n---\nExplain what ${input:file} does, in two sentences.\n');
      const server = await start([{ text: 'It exports a constant.' }], 'prompt-file');
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '/explain app.ts'], { cwd: ws, env: { HOME: home } });
      assert.equal(run.code, 0, run.stderr);
      assert.match(lastUser(server.requests[0]!), /^Explain what app\.ts does, in two sentences\./);
      assert.deepEqual(toolNames(server.requests[0]!), [], 'the file says mode: ask');
    });

    test("a prompt file's tools are the only ones offered and run", async () => {
      const { ws, home } = setup();
      mkdirSync(path.join(ws, '.localharness', 'prompts'), { recursive: true });
      writeFileSync(path.join(ws, '.localharness', 'prompts', 'peek.md'), '---\ndescription: Read one file\ntools: [read_file]\n---\nRead app.ts and say what it exports.\n');
      const server = await start(
        [{ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, { toolCalls: [{ name: 'read_file', arguments: { path: 'app.ts' } }] }, { text: 'It exports answer.' }],
        'prompt-tools',
      );
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', '/peek'], { cwd: ws, env: { HOME: home } });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(toolNames(server.requests[0]!).sort(), ['ask_question', 'read_file', 'task_completion']);
      assert.match(toolResults(server.requests[1]!)[0]!, /Not run: this request allows only these tools: read_file/);
      assert.match(toolResults(server.requests[2]!)[1]!, /answer = 41/);
    });
  });
}
