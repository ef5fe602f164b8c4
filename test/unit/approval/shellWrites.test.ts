// What a run_command line visibly writes: every construct the reader knows, quoting and chaining, and the
// look-alikes it must not claim.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findShellWrites } from '../../../src/core/approval/shellWrites';
import { tokenizeShell } from '../../../src/core/approval/shellTokens';

const paths = (command: string) => findShellWrites(command).map((w) => w.path);
const via = (command: string) => findShellWrites(command).map((w) => `${w.via} ${w.path}`);

describe('redirections', () => {
  test('>, >>, >|, fd-numbered, &> and &>>, >& file, <>', () => {
    assert.deepEqual(via(`printf '{}' > .vscode/settings.json`), ['> .vscode/settings.json']);
    assert.deepEqual(via('echo x >> ~/.bashrc'), ['>> ~/.bashrc']);
    assert.deepEqual(via('echo x >| a'), ['>| a']);
    assert.deepEqual(via('cmd 1>out 2>err 2>>err2'), ['1> out', '2> err', '2>> err2']);
    assert.deepEqual(via('cmd &>all &>>more'), ['&> all', '&>> more']);
    assert.deepEqual(via('cmd >& both'), ['>& both']);
    assert.deepEqual(via('exec 3<> rw'), ['3<> rw']);
  });

  test('attached and spaced forms, quoted targets', () => {
    assert.deepEqual(paths('echo x>a;echo y >b'), ['a', 'b']);
    assert.deepEqual(paths(`echo x > "my file.txt"`), ['my file.txt']);
    assert.deepEqual(paths(`echo x > '.vscode/settings.json'`), ['.vscode/settings.json']);
    assert.deepEqual(paths(`echo x > .vs"code"/set'tings'.json`), ['.vscode/settings.json']);
  });

  test('redirection before the command word', () => {
    assert.deepEqual(paths('> .envrc echo hi'), ['.envrc']);
  });

  test('$HOME and ~ become a home path', () => {
    assert.deepEqual(paths('echo x >> $HOME/.zshrc; echo y >> "${HOME}/.profile"; echo z > ~/.bash_profile'), ['~/.zshrc', '~/.profile', '~/.bash_profile']);
  });
});

describe('not writes', () => {
  test('quoted or escaped ">" is text', () => {
    assert.deepEqual(paths(`echo ">" foo`), []);
    assert.deepEqual(paths(`echo 'a > b' "c > d" e\\>f`), []);
    assert.deepEqual(paths(`grep -n "=>" src/app.ts`), []);
  });

  test('fd duplication and /dev targets', () => {
    assert.deepEqual(paths('grep foo > /dev/null'), []);
    assert.deepEqual(paths('cmd 2>&1 | tail'), []);
    assert.deepEqual(paths('cmd >&2'), []);
    assert.deepEqual(paths('cmd &>/dev/null; cmd 2>/dev/stderr; exec 3>&-'), []);
  });

  test('reading commands and input redirections', () => {
    assert.deepEqual(paths('cat .vscode/settings.json < input.txt | grep x'), []);
    assert.deepEqual(paths('sed -n 1,5p .git/config'), []);
    assert.deepEqual(paths('sed s/a/b/ file > /dev/null'), []);
    assert.deepEqual(paths('git config --get user.name; git config user.email; git config -l'), []);
    assert.deepEqual(paths('cp --help; npm test; npm pkg get scripts'), []);
  });

  test('comments and here-document bodies', () => {
    assert.deepEqual(paths('ls # > not-a-file'), []);
    assert.deepEqual(paths(`cat > script.sh <<'EOF'\necho hi > inside-heredoc.txt\nEOF\nls`), ['script.sh']);
    assert.deepEqual(paths(`cat <<-END > out.txt\n\techo > no.txt\n\tEND\necho after > yes.txt`), ['out.txt', 'yes.txt']);
  });

  test('writes it cannot see are not claimed', () => {
    assert.deepEqual(paths(`python3 -c "open('.vscode/settings.json','w').write('{}')"`), []);
    assert.deepEqual(paths('echo x > $TARGET').length, 1, 'a variable target is reported as written, never resolved');
  });
});

describe('chaining, nesting and wrappers', () => {
  test('&&, ||, ;, |, & and newlines split commands', () => {
    assert.deepEqual(paths('a && echo 1 > one || echo 2 > two; echo 3 > three & echo 4 | tee four\necho 5 > five'), ['one', 'two', 'three', 'four', 'five']);
  });

  test('cd changes where later relative paths land', () => {
    assert.deepEqual(paths(`cd .vscode && printf '{}' > settings.json`), ['.vscode/settings.json']);
    assert.deepEqual(paths('cd a; cd b; touch c'), ['a/b/c']);
    assert.deepEqual(paths('cd; echo x >> .bashrc'), ['~/.bashrc']);
  });

  test('sh -c, bash -lc, eval, $(…), `…`, and >(…)', () => {
    assert.deepEqual(paths(`bash -c "echo x > .husky/pre-commit"`), ['.husky/pre-commit']);
    assert.deepEqual(paths(`sh -ec 'tee .envrc < x'`), ['.envrc']);
    assert.deepEqual(paths(`eval "echo x > evald"`), ['evald']);
    assert.deepEqual(paths('echo $(echo y > inner.txt)'), ['inner.txt']);
    assert.deepEqual(paths('echo "$(touch quoted-inner)"'), ['quoted-inner']);
    assert.deepEqual(paths('echo `rm -f AGENTS.md`'), ['AGENTS.md']);
    assert.deepEqual(paths('cmd > >(tee log.txt)'), ['log.txt']);
    assert.deepEqual(paths('echo $((1 > 2))'), [], 'arithmetic is not a command');
  });

  test('sudo, env, VAR=x, timeout, nohup, command and absolute command paths', () => {
    assert.deepEqual(paths('FOO=1 sudo -u root tee -a /etc/profile < x'), ['/etc/profile']);
    assert.deepEqual(paths('env -u X A=b /usr/bin/tee out'), ['out']);
    assert.deepEqual(paths('timeout -s KILL 5 nohup command cp a b'), ['b', 'b/a']);
    assert.deepEqual(paths('\\rm -f .git/config'), ['.git/config']);
    assert.deepEqual(paths('if true; then rm x; fi'), ['x']);
  });

  test('an unterminated quote does not throw', () => {
    assert.deepEqual(paths(`echo > out "unterminated`), ['out']);
    assert.doesNotThrow(() => findShellWrites(`$( ( ' " \``));
  });
});

describe('commands that write files', () => {
  test('tee', () => {
    assert.deepEqual(via('cat x | tee -a a.txt b.txt'), ['tee a.txt', 'tee b.txt']);
  });

  test('sed -i and perl -i: the files after the script', () => {
    assert.deepEqual(via(`sed -i 's/a/b/' .git/config`), ['sed -i .git/config']);
    assert.deepEqual(paths(`sed -i.bak -e 's/a/b/' -e 's/c/d/' a b`), ['a', 'b']);
    assert.deepEqual(paths(`sed -i '' 's/a/b/' AGENTS.md`), ['AGENTS.md'], 'BSD sed: empty suffix word');
    assert.deepEqual(paths(`sed --in-place -E 's/a/b/' x`), ['x']);
    assert.deepEqual(paths(`sed -Ei 's/a/b/' y`), ['y']);
    assert.deepEqual(paths(`perl -pi -e 's/a/b/' .npmrc`), ['.npmrc']);
  });

  test('cp, mv, install, ln: the destination (and the file inside a destination folder)', () => {
    assert.deepEqual(paths('cp -r template/settings.json .vscode/'), ['.vscode/', '.vscode/settings.json']);
    assert.deepEqual(paths('cp -t .github/workflows ci.yml'), ['.github/workflows', '.github/workflows/ci.yml']);
    assert.deepEqual(paths('mv new.yml .github/workflows/ci.yml'), ['.github/workflows/ci.yml', '.github/workflows/ci.yml/new.yml', 'new.yml']);
    assert.deepEqual(paths('install -m 755 hook .git/hooks/pre-commit'), ['.git/hooks/pre-commit', '.git/hooks/pre-commit/hook']);
    assert.deepEqual(paths('install -d .husky'), ['.husky']);
    assert.deepEqual(paths('ln -sf ../evil.sh .git/hooks/post-merge'), ['.git/hooks/post-merge', '.git/hooks/post-merge/evil.sh']);
    assert.deepEqual(paths('ln -s /tmp/x/.bashrc'), ['.bashrc']);
    assert.deepEqual(paths('cp onlyone'), []);
  });

  test('rm, rmdir, unlink, touch, shred, truncate', () => {
    assert.deepEqual(paths('rm -rf .git node_modules'), ['.git', 'node_modules']);
    assert.deepEqual(paths('rmdir .devcontainer; unlink .mcp.json; shred -n 3 .ssh/id_rsa'), ['.devcontainer', '.mcp.json', '.ssh/id_rsa']);
    assert.deepEqual(paths('touch -d yesterday .envrc'), ['.envrc']);
    assert.deepEqual(paths('truncate -s 0 .travis.yml'), ['.travis.yml']);
  });

  test('chmod, chown, chgrp: the files, not the mode or owner', () => {
    assert.deepEqual(paths('chmod +x .git/hooks/pre-commit'), ['.git/hooks/pre-commit']);
    assert.deepEqual(paths('chmod -R 755 .husky'), ['.husky']);
    assert.deepEqual(paths('chmod -x script.sh'), ['script.sh']);
    assert.deepEqual(paths('chown me:me .bashrc; chgrp staff .profile'), ['.bashrc', '.profile']);
  });

  test('dd of=, curl -o, wget -O', () => {
    assert.deepEqual(via('dd if=/dev/zero of=.envrc bs=1 count=1'), ['dd of= .envrc']);
    assert.deepEqual(paths('curl -sSLo .git/hooks/post-checkout https://x'), ['.git/hooks/post-checkout']);
    assert.deepEqual(paths('curl --output=a https://x; curl -o - https://y'), ['a']);
    assert.deepEqual(paths('wget -O .zshrc https://x; wget -O- https://y'), ['.zshrc']);
  });

  test('git config and git remote write the repository configuration', () => {
    assert.deepEqual(via('git config core.hooksPath hooks'), ['git config .git/config']);
    assert.deepEqual(paths(`git config --global alias.x '!sh'`), ['~/.gitconfig']);
    assert.deepEqual(paths('git config --unset core.editor'), ['.git/config']);
    assert.deepEqual(paths('git config set core.pager cat'), ['.git/config']);
    assert.deepEqual(paths('git -C sub config user.name me'), ['sub/.git/config']);
    assert.deepEqual(paths('git config -f other.cfg a.b c'), ['other.cfg']);
    assert.deepEqual(paths('git remote add origin https://x'), ['.git/config']);
    assert.deepEqual(paths('git remote -v; git status; git commit -m "x > y"'), []);
  });

  test('npm pkg set / delete and set-script write package.json', () => {
    assert.deepEqual(via(`npm pkg set scripts.postinstall="curl x|sh"`), ['npm pkg package.json']);
    assert.deepEqual(paths('pnpm pkg delete scripts.test; npm set-script x y'), ['package.json', 'package.json']);
  });
});

describe('tokenizer', () => {
  test('operators only outside quotes; fd prefix only on a word of digits', () => {
    const ops = (s: string) => tokenizeShell(s).tokens.filter((t) => t.kind === 'op').map((t) => (t.kind === 'op' ? `${t.fd ?? ''}${t.text}` : ''));
    assert.deepEqual(ops(`a "&&" b && c '|' d | e`), ['&&', '|']);
    assert.deepEqual(ops('echo 2>f a2>g 2 >h'), ['2>', '>', '>']);
  });
});
