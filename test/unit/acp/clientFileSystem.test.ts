// The client-backed file system sends only what a text request carries exactly: UTF-8 without a BOM goes through
// the client (its buffers, its undo); other encodings, BOM files and binary stay on disk byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ClientFileSystem, type ClientFiles } from '../../../src/cli/acp/clientFileSystem';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

function setup(canRead = true, canWrite = true) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-clientfs-'));
  const calls: string[] = [];
  // The "editor" has an unsaved buffer for buffer.txt; every other file it reads from disk.
  const buffers = new Map<string, string>([[path.join(dir, 'buffer.txt'), 'unsaved text\n']]);
  const client: ClientFiles = {
    canRead,
    canWrite,
    read: async (file) => {
      calls.push(`read ${path.basename(file)}`);
      return buffers.get(file) ?? readFileSync(file, 'utf8');
    },
    write: async (file, content) => {
      calls.push(`write ${path.basename(file)}`);
      writeFileSync(file, content);
    },
  };
  return { dir, calls, fs: new ClientFileSystem(new NodeFileSystem(), client) };
}

test('UTF-8 files are read from the editor (its unsaved buffer) and written through it', async () => {
  const { dir, calls, fs } = setup();
  writeFileSync(path.join(dir, 'buffer.txt'), 'saved text\n');
  assert.equal(await fs.readFile(path.join(dir, 'buffer.txt')), 'unsaved text\n');
  assert.equal(new TextDecoder().decode(await fs.readBytes(path.join(dir, 'buffer.txt'))), 'unsaved text\n');
  await fs.writeBytes(path.join(dir, 'buffer.txt'), new TextEncoder().encode('héllo\n'));
  await fs.writeBytes(path.join(dir, 'new.txt'), new TextEncoder().encode('fresh\n'));
  assert.deepEqual(calls, ['read buffer.txt', 'read buffer.txt', 'write buffer.txt', 'write new.txt']);
  assert.equal(readFileSync(path.join(dir, 'new.txt'), 'utf8'), 'fresh\n');
});

test('Latin-1, BOM and binary files stay on disk byte for byte', async () => {
  const { dir, calls, fs } = setup();
  const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1
  writeFileSync(path.join(dir, 'latin1.c'), latin1);
  assert.deepEqual(Buffer.from(await fs.readBytes(path.join(dir, 'latin1.c'))), latin1);
  const edited = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x21, 0x0a]);
  await fs.writeBytes(path.join(dir, 'latin1.c'), edited);
  assert.deepEqual(readFileSync(path.join(dir, 'latin1.c')), edited);
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x\n')]);
  writeFileSync(path.join(dir, 'bom.txt'), bom);
  await fs.writeBytes(path.join(dir, 'bom.txt'), Buffer.concat([bom, Buffer.from('y\n')]));
  assert.deepEqual(readFileSync(path.join(dir, 'bom.txt')), Buffer.concat([bom, Buffer.from('y\n')]));
  const binary = Buffer.from([0, 1, 2, 255]);
  writeFileSync(path.join(dir, 'data.bin'), binary);
  assert.deepEqual(Buffer.from(await fs.readBytes(path.join(dir, 'data.bin'))), binary);
  assert.deepEqual(calls, [], 'the editor was never asked');
});

test('without the capabilities everything is local', async () => {
  const { dir, calls, fs } = setup(false, false);
  writeFileSync(path.join(dir, 'buffer.txt'), 'saved text\n');
  assert.equal(await fs.readFile(path.join(dir, 'buffer.txt')), 'saved text\n');
  await fs.writeFile(path.join(dir, 'out.txt'), 'x\n');
  assert.equal(readFileSync(path.join(dir, 'out.txt'), 'utf8'), 'x\n');
  assert.deepEqual(calls, []);
});
