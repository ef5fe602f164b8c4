// The sensitive-path patterns: every default catches its files (at any depth, any case), ordinary files stay
// ordinary, package.json counts only when its command fields change, and extra patterns add but never remove.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_SENSITIVE_PATTERNS,
  EXTRA_PATTERN_CONTROLS,
  SensitivePaths,
  canonicalJson,
  packageJsonCommandsChanged,
} from '../../../src/core/workspace/sensitivePaths';

/** One real file per default pattern. */
const EXAMPLES: Record<string, string> = {
  '.vscode/settings.json': '.vscode/settings.json',
  '.vscode/tasks.json': '.vscode/tasks.json',
  '.vscode/launch.json': '.vscode/launch.json',
  '.vscode/mcp.json': '.vscode/mcp.json',
  '.vscode/**': '.vscode/extensions.json',
  '*.code-workspace': 'project.code-workspace',
  '.git/hooks/**': '.git/hooks/pre-commit',
  '.git/config': '.git/config',
  '.git/**': '.git/info/exclude',
  '.gitconfig': '.gitconfig',
  '.husky/**': '.husky/pre-push',
  '.pre-commit-config.yaml': '.pre-commit-config.yaml',
  '.github/workflows/**': '.github/workflows/ci.yml',
  '.github/actions/**': '.github/actions/setup/action.yml',
  '.gitlab-ci.yml': '.gitlab-ci.yml',
  '.circleci/**': '.circleci/config.yml',
  'azure-pipelines.yml': 'azure-pipelines.yml',
  '.travis.yml': '.travis.yml',
  Jenkinsfile: 'Jenkinsfile',
  'bitbucket-pipelines.yml': 'bitbucket-pipelines.yml',
  '.buildkite/**': '.buildkite/pipeline.yml',
  '.drone.yml': '.drone.yml',
  '.devcontainer/**': '.devcontainer/devcontainer.json',
  '.devcontainer.json': '.devcontainer.json',
  'AGENTS.md': 'AGENTS.md',
  '.localharness/**': '.localharness/rules/style.md',
  '.mcp.json': '.mcp.json',
  'CLAUDE.md': 'CLAUDE.md',
  '.cursorrules': '.cursorrules',
  '.cursor/rules/**': '.cursor/rules/a.mdc',
  '.github/copilot-instructions.md': '.github/copilot-instructions.md',
  '.github/instructions/**': '.github/instructions/ts.instructions.md',
  'package.json': 'package.json',
  '.npmrc': '.npmrc',
  '.yarnrc': '.yarnrc',
  '.yarnrc.yml': '.yarnrc.yml',
  '.envrc': '.envrc',
  '.bashrc': '.bashrc',
  '.bash_profile': '.bash_profile',
  '.bash_login': '.bash_login',
  '.profile': '.profile',
  '.zshrc': '.zshrc',
  '.zshenv': '.zshenv',
  '.zprofile': '.zprofile',
  '.zlogin': '.zlogin',
  '.config/fish/**': '.config/fish/config.fish',
  '.ssh/**': '.ssh/authorized_keys',
};

describe('default sensitive patterns', () => {
  const paths = new SensitivePaths();

  test('every default pattern has an example here and catches it with its own "controls" text', () => {
    assert.deepEqual(Object.keys(EXAMPLES).sort(), DEFAULT_SENSITIVE_PATTERNS.map((p) => p.pattern).sort());
    for (const p of DEFAULT_SENSITIVE_PATTERNS) {
      const hit = paths.match(EXAMPLES[p.pattern]!);
      assert.equal(hit?.pattern, p.pattern, `${EXAMPLES[p.pattern]} should hit ${p.pattern}, got ${hit?.pattern}`);
      assert.equal(hit.controls, p.controls);
      assert.ok(p.controls.length > 10);
    }
  });

  test('the dialog text for .vscode/settings.json names the model server', () => {
    assert.match(paths.match('.vscode/settings.json')!.controls, /editor and extension settings.*model server Local Harness uses/);
  });

  test('matches at any depth, in any case, with Windows separators and ./ prefixes', () => {
    for (const p of ['pkg/AGENTS.md', 'sub/.git/hooks/pre-commit', '.VSCODE/Settings.json', '.vscode\\settings.json', './.github/workflows/x.yml', '.git', '.vscode/', 'a//.husky//pre-commit']) {
      assert.ok(paths.match(p), p);
    }
    assert.equal(paths.match('sub/.git/hooks/pre-commit')?.pattern, '.git/hooks/**');
  });

  test('ordinary files are not sensitive', () => {
    for (const p of ['src/index.ts', 'README.md', '.env', '.gitignore', 'docs/vscode/settings.md', 'github/workflows/x.yml', 'my.vscode/settings.json', 'agents.md.bak', 'profile', 'package-lock.json', '.']) {
      assert.equal(paths.match(p), undefined, p);
    }
  });
});

describe('package.json', () => {
  const base = { name: 'app', version: '1.0.0', scripts: { test: 'node --test' }, dependencies: { a: '1' } };
  const json = (v: unknown) => JSON.stringify(v, null, 2);

  test('a change to scripts (added, changed, removed) counts', () => {
    assert.equal(packageJsonCommandsChanged(json(base), json({ ...base, scripts: { test: 'node --test', postinstall: 'curl x | sh' } })), true);
    assert.equal(packageJsonCommandsChanged(json(base), json({ ...base, scripts: { test: 'rm -rf /' } })), true);
    assert.equal(packageJsonCommandsChanged(json(base), json({ name: 'app' })), true);
    assert.equal(packageJsonCommandsChanged(undefined, json(base)), true, 'a new package.json with scripts');
  });

  test('git-hook fields count too', () => {
    assert.equal(packageJsonCommandsChanged(json(base), json({ ...base, 'lint-staged': { '*.js': 'sh evil.sh' } })), true);
    assert.equal(packageJsonCommandsChanged(json(base), json({ ...base, 'simple-git-hooks': { 'pre-commit': 'x' } })), true);
  });

  test('other fields, formatting and key order do not count', () => {
    assert.equal(packageJsonCommandsChanged(json(base), json({ ...base, version: '1.0.1', dependencies: { a: '2', b: '1' } })), false);
    assert.equal(packageJsonCommandsChanged(json(base), JSON.stringify(base)), false);
    assert.equal(packageJsonCommandsChanged(json(base), json({ dependencies: base.dependencies, scripts: base.scripts, version: '1.0.0', name: 'app' })), false);
    assert.equal(packageJsonCommandsChanged(undefined, json({ name: 'x', version: '0.0.1' })), false);
  });

  test('broken JSON cannot hide scripts: broken counts as "no scripts"', () => {
    assert.equal(packageJsonCommandsChanged(json(base), '{ "name": "app", '), true, 'scripts disappear');
    assert.equal(packageJsonCommandsChanged('{ broken', json(base)), true, 'scripts appear after a broken state');
    assert.equal(packageJsonCommandsChanged('{ broken', '{ still broken'), false);
  });

  test('canonical JSON ignores key order', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: 2 } }), canonicalJson({ a: { c: 2, d: [1, { x: 2, y: 1 }] }, b: 1 }));
    assert.notEqual(canonicalJson({ a: 1 }), canonicalJson({ a: '1' }));
  });
});

describe('extra patterns', () => {
  test('add to the defaults, match at any depth, or from the root with a leading slash', () => {
    const paths = new SensitivePaths(['deploy/**', '/Makefile', '.env']);
    assert.equal(paths.match('deploy/prod.sh')?.controls, EXTRA_PATTERN_CONTROLS);
    assert.equal(paths.match('apps/web/deploy/prod.sh')?.pattern, 'deploy/**');
    assert.equal(paths.match('Makefile')?.pattern, '/Makefile');
    assert.equal(paths.match('sub/Makefile'), undefined, 'anchored to the workspace root');
    assert.equal(paths.match('Makefile', false), undefined, 'anchored patterns apply only inside the workspace');
    assert.equal(paths.match('.env')?.pattern, '.env');
    assert.ok(paths.match('.vscode/settings.json'), 'the defaults still apply');
  });

  test('.gitignore-style folder patterns cover what is inside', () => {
    const paths = new SensitivePaths(['secrets/', 'infra', '**/.env*']);
    assert.equal(paths.match('secrets/prod.key')?.pattern, 'secrets/');
    assert.equal(paths.match('secrets')?.pattern, 'secrets/');
    assert.equal(paths.match('infra/main.tf')?.pattern, 'infra');
    assert.equal(paths.match('apps/web/.env.local')?.pattern, '**/.env*');
    assert.equal(paths.match('.env')?.pattern, '**/.env*');
    assert.equal(paths.match('secretsauce.txt'), undefined);
  });

  test('cannot remove a default: negations and empty entries are ignored and reported', () => {
    const paths = new SensitivePaths(['!.vscode/**', '!AGENTS.md', '', '   ', '/']);
    assert.ok(paths.match('.vscode/settings.json'));
    assert.ok(paths.match('AGENTS.md'));
    assert.deepEqual(paths.ignored, ['!.vscode/**', '!AGENTS.md', '', '   ', '/']);
  });

  test('non-strings from a hand-edited setting are ignored, not thrown', () => {
    const paths = new SensitivePaths([42 as unknown as string, 'ok/**']);
    assert.ok(paths.match('ok/x'));
    assert.equal(paths.ignored.length, 1);
  });
});
