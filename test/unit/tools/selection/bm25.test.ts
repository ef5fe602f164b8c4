// BM25 and the tokenizer under it: identifier splitting, stemming, scoring order, ties, and realistic tools.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Bm25Index, bm25Document, bm25Scores, topIndices } from '../../../../src/core/tools/selection/bm25';
import { identifierWords, stem, tokenize, toolTokens } from '../../../../src/core/tools/selection/toolText';
import { realisticDefinitions } from '../../../helpers/tools/realisticTools';

describe('tokenizer', () => {
  it('splits snake_case, camelCase, acronyms and the MCP server prefix', () => {
    assert.deepEqual(identifierWords('files__move_file'), ['files', 'move', 'file']);
    assert.deepEqual(identifierWords('readTextFile'), ['read', 'text', 'file']);
    assert.deepEqual(identifierWords('HTTPServer2'), ['http', 'server2']);
    assert.deepEqual(identifierWords('list-directory'), ['list', 'directory']);
  });

  it('brings inflections of a word to one stem', () => {
    for (const group of [
      ['rename', 'renamed', 'renaming', 'renames'],
      ['move', 'moved', 'moving', 'moves'],
      ['file', 'files'],
      ['directory', 'directories'],
      ['search', 'searches', 'searching'],
    ]) {
      const stems = new Set(group.map(stem));
      assert.equal(stems.size, 1, `${group.join(', ')} → ${[...stems].join(', ')}`);
    }
    assert.notEqual(stem('status'), stem('stat'), 'a word ending in -us keeps its s');
  });

  it('drops stopwords but keeps words that matter', () => {
    assert.deepEqual(tokenize('Please rename the file notes.txt'), ['renam', 'fil', 'not', 'txt']);
    assert.ok(tokenize('do not delete').includes(stem('not')));
  });
  it('gives the same words for a text however often its lines were seen before, long lines included', () => {
    const line = 'readTextFile renames HTTPServer2 and the notes';
    const long = `moveFile ${'renamed files '.repeat(40)}end`;
    const once = [...tokenize(line), ...tokenize(long)];
    assert.deepEqual(once.slice(0, 7), ['read', 'text', 'fil', 'renam', 'http', 'server2', 'not']);
    for (let i = 0; i < 3; i++) assert.deepEqual(tokenize(`${line}\n${long}`), once);
    // A cached line's words are copied out: changing a result does not change the next one.
    tokenize(line).push('extra');
    assert.deepEqual(tokenize(line), once.slice(0, 7));
  });
});

describe('bm25Scores', () => {
  const docs = [
    bm25Document(tokenize('move or rename a file')),
    bm25Document(tokenize('read a file')),
    bm25Document(tokenize('run a shell command in the terminal')),
  ];

  it('ranks the document with the rarer matching term first', () => {
    const scores = bm25Scores(docs, tokenize('rename file'));
    assert.ok(scores[0]! > scores[1]!, `${scores[0]} > ${scores[1]}`);
    assert.equal(scores[2], 0);
  });

  it('a term in every document counts less than a term in one', () => {
    const common = bm25Scores(docs, tokenize('file'));
    const rare = bm25Scores(docs, tokenize('rename'));
    assert.ok(rare[0]! > common[0]!);
  });

  it('a repeated query word counts once, and no docs or no match give zeros', () => {
    assert.deepEqual([...bm25Scores(docs, ['renam', 'renam'])], [...bm25Scores(docs, ['renam'])]);
    assert.deepEqual([...bm25Scores([], ['x'])], []);
    assert.deepEqual([...bm25Scores(docs, ['zebra'])], [0, 0, 0]);
  });

  it('shorter documents win over longer ones with the same matches', () => {
    const short = bm25Document(['alpha', 'beta']);
    const long = bm25Document(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta']);
    const scores = bm25Scores([long, short, bm25Document(['omega'])], ['alpha']);
    assert.ok(scores[1]! > scores[0]!);
  });
});

describe('topIndices', () => {
  it('orders by score, keeps the original order on ties, and can leave out zeros', () => {
    assert.deepEqual(topIndices([1, 3, 3, 0, 2], 10), [1, 2, 4, 0, 3]);
    assert.deepEqual(topIndices([1, 3, 3, 0, 2], 2), [1, 2]);
    assert.deepEqual(topIndices([0, 2, 0], 5, true), [1]);
    assert.deepEqual(topIndices([1, 2], 0), []);
  });
});

describe('ranking real tool definitions by keywords', () => {
  const defs = realisticDefinitions();
  const index = new Bm25Index(defs, toolTokens);
  const top = (query: string, n: number) => index.search(tokenize(query), n).map((h) => h.item.name);

  it('finds both move tools for a rename request', () => {
    const best = top('rename the file notes.txt to todo.txt', 4);
    assert.ok(best.includes('move_file') && best.includes('files__move_file'), best.join(', '));
  });

  it('finds command and directory tools by their words', () => {
    assert.equal(top('run npm test in a shell', 1)[0], 'run_command');
    assert.ok(top('show the directory tree', 3).includes('files__directory_tree'), top('show the directory tree', 3).join(', '));
  });

  it('returns nothing for words no tool has', () => {
    assert.deepEqual(top('zebra quokka', 5), []);
  });
});
