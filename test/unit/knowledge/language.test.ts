// Language detection from file names, special names and shebang lines; and which chunking strategy each gets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkStrategyFor, detectLanguage } from '../../../src/core/knowledge/language';

test('languages from extensions (any case, any separator, nested dots)', () => {
  const cases: Array<[string, string]> = [
    ['src/core/agent.ts', 'typescript'],
    ['src/view/App.tsx', 'typescriptreact'],
    ['scripts/build.mjs', 'javascript'],
    ['C:\\work\\legacy\\Main.JAVA', 'java'],
    ['pkg/server.go', 'go'],
    ['src/lib.rs', 'rust'],
    ['etl/pipeline.py', 'python'],
    ['docs/guide.md', 'markdown'],
    ['include/list.h', 'c'],
    ['src/list.cpp', 'cpp'],
    ['Greeter.cs', 'csharp'],
    ['config/app.yml', 'yaml'],
    ['types.d.ts', 'typescript'],
    ['archive.tar.gz', 'plaintext'],
    ['LICENSE', 'plaintext'],
  ];
  for (const [file, language] of cases) assert.equal(detectLanguage(file), language, file);
});

test('special file names and shebang lines', () => {
  assert.equal(detectLanguage('services/api/Dockerfile'), 'dockerfile');
  assert.equal(detectLanguage('Dockerfile.dev'), 'dockerfile');
  assert.equal(detectLanguage('Makefile'), 'makefile');
  assert.equal(detectLanguage('CMakeLists.txt'), 'cmake');
  assert.equal(detectLanguage('bin/tool', '#!/usr/bin/env python3\nprint(1)\n'), 'python');
  assert.equal(detectLanguage('bin/cli', '#!/usr/bin/env node\r\nconsole.log(1)'), 'javascript');
  assert.equal(detectLanguage('bin/setup', '#!/bin/bash\nset -e\n'), 'shellscript');
  assert.equal(detectLanguage('bin/x', '#!/opt/weird-interpreter\n'), 'plaintext');
  assert.equal(detectLanguage('index', '<?php\necho 1;'), 'php');
  // The name wins over the shebang when it says something.
  assert.equal(detectLanguage('run.ts', '#!/usr/bin/env python3\n'), 'typescript');
});

test('each language gets the chunking strategy that fits it', () => {
  assert.equal(chunkStrategyFor('typescript'), 'script');
  assert.equal(chunkStrategyFor('javascriptreact'), 'script');
  assert.equal(chunkStrategyFor('python'), 'python');
  assert.equal(chunkStrategyFor('go'), 'go');
  assert.equal(chunkStrategyFor('rust'), 'rust');
  for (const language of ['java', 'csharp', 'c', 'cpp', 'kotlin', 'swift', 'php']) assert.equal(chunkStrategyFor(language), 'c-like', language);
  assert.equal(chunkStrategyFor('markdown'), 'markdown');
  for (const language of ['yaml', 'json', 'plaintext', 'shellscript', 'something-new']) assert.equal(chunkStrategyFor(language), 'text', language);
});
