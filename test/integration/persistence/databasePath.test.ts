// A database path that names a folder or someone else's file is refused and nothing on disk changes; a
// symlinked database stays a link and its target gets the writes; the lock is on the real file.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PersistenceError } from '../../../src/persistence/errors';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { loadSqlJs } from '../../../src/persistence/sqlJsLoader';
import { counterIds, tempDir } from './helpers';

function open(file: string) {
  return SessionStore.open(file, { newId: counterIds(), foldIdleMs: 0 });
}

/** Every name and size under `dir`, recursively: what "nothing changed" is checked against. */
function listing(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const full = path.join(dir, name);
    const st = lstatSync(full);
    out.push(`${name} ${st.isDirectory() ? 'dir' : st.size} ${st.mtimeMs}`);
  }
  return out.sort();
}

async function refused(file: string, pattern: RegExp): Promise<void> {
  await assert.rejects(open(file), (err: unknown) => {
    assert.ok(err instanceof PersistenceError, String(err));
    assert.equal(err.code, 'not-a-database');
    assert.match(err.message, pattern);
    assert.doesNotMatch(err.message, /\n/);
    return true;
  });
}

test('a folder is refused and neither it nor its parent changes', async (t) => {
  const root = tempDir(t);
  const project = path.join(root, 'proj');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  writeFileSync(path.join(project, 'src', 'main.c'), 'int main(void) { return 0; }\n');
  const before = listing(root);
  await refused(project, /is a folder/);
  assert.deepEqual(listing(root), before);
});

test('a source file, a text file and another program\'s SQLite file are refused byte for byte untouched', async (t) => {
  const root = tempDir(t);
  const source = path.join(root, 'main.c');
  writeFileSync(source, '#include <stdio.h>\nint main(void) { puts("hi"); }\n');
  const SQL = await loadSqlJs();
  const foreign = new SQL.Database();
  foreign.run('CREATE TABLE bookmarks (url TEXT)');
  const other = path.join(root, 'places.sqlite');
  writeFileSync(other, foreign.export());
  foreign.close();
  const before = listing(root);
  const bytes = [readFileSync(source), readFileSync(other)];
  await refused(source, /not a Local Harness session database \(not a SQLite file\)/);
  await refused(other, /another program \(tables: bookmarks\)/);
  assert.deepEqual(listing(root), before);
  assert.deepEqual([readFileSync(source), readFileSync(other)], bytes);
});

test('an empty file and a path that does not exist yet become databases', async (t) => {
  const root = tempDir(t);
  const empty = path.join(root, 'empty.db');
  writeFileSync(empty, '');
  for (const file of [empty, path.join(root, 'new', 'sessions.db')]) {
    const store = await open(file);
    await store.createSession({ title: 'ok', model: 'm', provider: 'p' });
    await store.close();
    assert.ok(statSync(file).size > 0);
  }
});

test('a symlinked database stays a link, its target gets the session, and the lock is on the target', async (t) => {
  const root = tempDir(t);
  const target = path.join(root, 'real', 'sessions.db');
  mkdirSync(path.dirname(target));
  const link = path.join(root, 'link.db');
  symlinkSync(target, link); // dangling until the first write

  const store = await open(link);
  await store.createSession({ title: 'Via link', model: 'm', provider: 'p' });
  // A second opener through the real name is excluded while the first holds the link.
  await assert.rejects(open(target), (err: unknown) => err instanceof PersistenceError && err.code === 'locked');
  await store.close();

  assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
  assert.equal(readlinkSync(link), target);
  assert.deepEqual(readdirSync(root).sort(), ['link.db', 'real']);
  const direct = await open(target);
  assert.deepEqual((await direct.listSessions()).map((s) => s.title), ['Via link']);
  // And the other way round: the target held, the link refused.
  await assert.rejects(open(link), (err: unknown) => err instanceof PersistenceError && err.code === 'locked');
  await direct.close();
});

test('unreadable bytes under a database name (sessions.db) are a damaged database of ours: moved aside, kept', async (t) => {
  const root = tempDir(t);
  const file = path.join(root, 'sessions.db');
  writeFileSync(file, 'not sqlite at all '.repeat(50));
  const store = await open(file);
  assert.equal(store.notices[0]?.kind, 'database-moved-aside');
  await store.close();
  const aside = readdirSync(root).find((n) => n.startsWith('sessions.db.corrupt-'));
  assert.ok(aside);
  assert.equal(readFileSync(path.join(root, aside), 'utf8'), 'not sqlite at all '.repeat(50));
});
