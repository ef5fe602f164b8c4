// A prefix rule covers exactly one simple command: a table of chaining, substitution and wrapper forms that no
// rule may cover (each with the prefix it starts with), and plain commands with arguments that still are covered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandHasPrefix, coverable } from '../../../src/core/commandPrefix';

/** [prefix the user allowed, command the model sent]. None may be covered. */
const CHAINED: Array<[string, string]> = [
  ['npm test', 'npm test\nrm -rf ~'],
  ['npm test', 'npm test\r\nrm -rf ~'],
  ['npm test', 'npm test\rrm -rf ~'],
  ['echo', 'echo a\nnode -e "require(\'net\').connect(80, \'example.com\')"'],
  ['npm test', 'npm test; rm -rf ~'],
  ['npm test', 'npm test;rm -rf ~'],
  ['npm test', 'npm test & rm -rf ~'],
  ['npm test', 'npm test&rm -rf ~'],
  ['npm test', 'npm test && rm -rf ~'],
  ['npm test', 'npm test || rm -rf ~'],
  ['npm test', 'npm test | sh'],
  ['npm test', 'npm test |& sh'],
  ['npm test', 'npm test `rm -rf ~`'],
  ['npm test', 'npm test "`rm -rf ~`"'],
  ['npm test', 'npm test $(rm -rf ~)'],
  ['npm test', 'npm test "$(rm -rf ~)"'],
  ['npm test', 'npm test $((1+2))'],
  ['npm test', 'npm test <(rm -rf ~)'],
  ['npm test', 'npm test >(rm -rf ~)'],
  ['npm test', 'npm test <<EOF\nrm -rf ~\nEOF'],
  ['npm test', 'npm test <<< "x"'],
  ['npm test', 'npm test \\\nrm -rf ~'],
  ['npm test', 'npm test \\'],
  ['npm test', 'npm test >| out.log'],
  ['npm test', 'npm test >'],
  ['npm test', 'npm test > ; rm -rf ~'],
  ['npm test', '> out.log'],
  ['npm test', 'npm test # ; rm -rf ~'],
  ['npm test', 'npm test !!'],
  ['npm test', 'npm test "!-2"'],
  ['npm', 'npm test (rm -rf ~)'],
  ['npm test', 'npm test ${x:-$(rm -rf ~)}'],
  ['npm test', 'npm test "unclosed'],
  ['npm test', "npm test 'unclosed"],
  ['npm test', 'npm test\u0000rm'],
  ['npm test', 'npm test\u2028rm -rf ~'],
  ['eval', 'eval "npm test; rm -rf ~"'],
  ['exec', 'exec sh -c "rm -rf ~"'],
  ['sh', 'sh -c "npm test; rm -rf ~"'],
  ['bash', 'bash -c "rm -rf ~"'],
  ['bash', 'bash -lc "rm -rf ~"'],
  ['bash', 'bash'],
  ['env', 'env FOO=1 sh -c "rm -rf ~"'],
  ['env', 'env -S "sh -c rm"'],
  ['sudo', 'sudo -s'],
  ['npm test', 'PATH=. npm test'],
  ['npm test', 'NODE_OPTIONS=--require=./evil.js npm test'],
  ['LD_PRELOAD=./x.so npm test', 'LD_PRELOAD=./x.so npm test'],
  ['xargs', 'xargs rm -rf'],
  ['find .', 'find . -exec rm -rf {} +'],
  ['find .', 'find . -name x -execdir sh -c "rm" \\;'],
  ['source', 'source ./evil.sh'],
  ['.', '. ./evil.sh'],
  ['git', 'git -c core.pager="rm -rf ~" log'],
  ['$SHELL', '$SHELL -c "rm -rf ~"'],
  ['npm test', '^test^rm'],
  ['if', 'if true; then rm -rf ~; fi'],
  ['npm test', '{ npm test; rm -rf ~; }'],
  ['watch', 'watch "rm -rf ~"'],
  ['doas', 'doas -s'],
  ['pkexec', 'pkexec rm -rf /'],
  ['npm test', 'npm test =(rm -rf ~)'],
  ['npm test', 'npm test *(e:"rm -rf ~":)'],
];

/** [prefix, command]: one simple command starting with the prefix. */
const COVERED: Array<[string, string]> = [
  ['npm test', 'npm test'],
  ['npm test', 'npm  test'],
  ['npm test', 'npm test -- --grep "a b"'],
  ['npm test', "npm test -- --grep 'a; b && c | d'"],
  ['npm test', 'npm "test" --silent'],
  ['git status', 'git status --short'],
  ['npm test', 'npm test 2>&1'],
  ['npm test', 'npm test >/dev/null 2>&1'],
  ['npm test', 'npm test 2> /dev/null'],
  ['npm test', 'npm test </dev/null'],
  ['ls', 'ls -la $HOME/src'],
  ['grep -rn', 'grep -rn "TODO(me)" src'],
  ['echo', 'echo "a\\"b"'],
  ['node', "node -e 'console.log(1)'"],
  ['timeout 60 npm test', 'timeout 60 npm test'],
  ['env CI=1 npm test', 'env CI=1 npm test -- --watch=false'],
  ['python3 -m pytest', 'python3 -m pytest -k "not slow" tests/'],
  ['find . -name', 'find . -name "*.ts"'],
  ['bash scripts/check.sh', 'bash scripts/check.sh --fast'],
  ['npm test > out.log', 'npm test > out.log'],
  ['npm test > out.log', 'npm test >out.log --silent'],
  ['echo pwned > ../x.txt', 'echo pwned > ../x.txt'],
];

/** Near misses: one command, but not the allowed one. */
const OTHER: Array<[string, string]> = [
  ['npm test', 'npm testing'],
  ['npm test', 'npm'],
  ['npm test', 'npx test'],
  ['echo $HOME', "echo '$HOME'"],
  ['ls *', "ls '*'"],
  ['npm test && rm -rf ~', 'npm test && rm -rf ~'],
  ['npm test\nrm -rf ~', 'npm test'],
  // A wrapper alone never covers what it starts: the rule must name the inner command.
  ['env', 'env rm -rf ~'],
  ['nohup', 'nohup rm -rf ~'],
  ['timeout 10', 'timeout 10 rm -rf ~'],
  ['sudo', 'sudo rm -rf /'],
  ['env -', 'env - rm -rf ~'],
  // A redirection to a file is covered only by a prefix that names it.
  ['npm test', 'npm test > ~/.bashrc'],
  ['npm test', 'npm test >> .envrc'],
  ['npm test', 'npm test 2> /etc/passwd'],
  ['npm test', 'npm test < ~/.ssh/id_rsa'],
  ['npm test', 'npm test &> out.log'],
  ['npm test', 'npm test >&out.log'],
  ['npm test', 'npm test >/dev/tcp/127.0.0.1/80'],
  ['npm test', 'npm test >/dev/null2'],
  ['npm test > out.log', 'npm test > out.log > ~/.bashrc'],
  ['npm test > out.log', 'npm test > out.log 2>> ~/.profile'],
  ['npm test > out.log', 'npm test > other.log'],
  ['npm test > out.log', 'npm test >> out.log'],
  ['env -i', 'env -i PATH=/bin rm -rf ~'],
];

test(`none of ${CHAINED.length} chaining, substitution and wrapper forms is covered by a prefix rule`, () => {
  assert.ok(CHAINED.length >= 40);
  for (const [prefix, command] of CHAINED) {
    assert.equal(commandHasPrefix(command, prefix), false, `${JSON.stringify(prefix)} must not cover ${JSON.stringify(command)}`);
    const why = coverable(command);
    assert.equal(why.ok, false, `${JSON.stringify(command)} is not one plain command`);
    assert.ok(!why.ok && why.reason.length > 0);
  }
});

test('plain commands with arguments are covered by their prefix', () => {
  for (const [prefix, command] of COVERED) assert.equal(commandHasPrefix(command, prefix), true, `${JSON.stringify(prefix)} covers ${JSON.stringify(command)}`);
});

test('a prefix covers only the words it names', () => {
  for (const [prefix, command] of OTHER) assert.equal(commandHasPrefix(command, prefix), false, `${JSON.stringify(prefix)} must not cover ${JSON.stringify(command)}`);
});

test('the reason names what was found', () => {
  const reason = (c: string) => {
    const r = coverable(c);
    return r.ok ? '' : r.reason;
  };
  assert.match(reason('npm test\nrm -rf ~'), /more than one line/);
  assert.match(reason('npm test; rm'), /chains/);
  assert.match(reason('npm test $(id)'), /command substitution/);
  assert.match(reason('npm test <<EOF'), /here-document/);
  assert.match(reason('bash -c "id"'), /bash runs commands from a string/);
  assert.match(reason('FOO=1 npm test'), /sets FOO/);
  assert.match(reason('find . -exec id \\;'), /find -exec runs another command/);
});
