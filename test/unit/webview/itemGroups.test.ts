// Items grouped in fixed-size blocks (the blocks carry content-visibility): ranges split at group boundaries,
// and elements end up in index order whether they arrive at the end or are filled in above.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSDOM } from 'jsdom';
import { ItemGroups, groupRanges } from '../../../webview-ui/views/itemGroups';

test('groupRanges splits a range at group boundaries', () => {
  assert.deepEqual(groupRanges(0, 0, 50), []);
  assert.deepEqual(groupRanges(3, 7, 50), [{ group: 0, from: 3, to: 7 }]);
  assert.deepEqual(groupRanges(45, 105, 50), [
    { group: 0, from: 45, to: 50 },
    { group: 1, from: 50, to: 100 },
    { group: 2, from: 100, to: 105 },
  ]);
  assert.deepEqual(groupRanges(100, 150, 50), [{ group: 2, from: 100, to: 150 }]);
});

test('items prepended in chunks and appended at the end keep index order across groups', () => {
  const doc = new JSDOM('<div id="list"></div>').window.document;
  const list = doc.getElementById('list')!;
  const groups = new ItemGroups(doc, list, 4);
  const el = (i: number) => {
    const e = doc.createElement('p');
    e.textContent = String(i);
    return e;
  };
  // A snapshot of 11 items: the newest 3 first, then older ones in chunks, then two new items stream in.
  groups.prepend(8, [8, 9, 10].map(el));
  groups.prepend(3, [3, 4, 5, 6, 7].map(el));
  groups.prepend(0, [0, 1, 2].map(el));
  groups.append(11, el(11));
  groups.append(12, el(12));
  const shown = [...list.querySelectorAll('.item-group > p')].map((p) => Number(p.textContent));
  assert.deepEqual(shown, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.deepEqual(
    [...list.children].map((g) => g.children.length),
    [4, 4, 4, 1],
    'groups of 4 items each, the last one filling',
  );
  groups.clear();
  assert.equal(list.children.length, 0);
  groups.append(0, el(0));
  assert.equal(list.querySelectorAll('.item-group > p').length, 1);
});
