// CSP and theming rules the panel's sources must keep: no inline style or script paths, no HTML strings
// except sanitized markdown, colours only from --vscode-* variables, and webview-ui imports only src/shared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const UI = path.resolve(__dirname, '../../../webview-ui');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith('.ts') ? [full] : [];
  });
}

test('webview code builds DOM without HTML strings, inline styles, eval or inline handlers', () => {
  const offenders: string[] = [];
  for (const file of sources(UI)) {
    const text = readFileSync(file, 'utf8');
    const rules: Array<[RegExp, string]> = [
      [/\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write/, 'HTML string sink'],
      [/\.style\.|setAttribute\(\s*['"]style['"]/, 'inline style'],
      [/\beval\(|new Function\(/, 'eval'],
      [/\.on[a-z]+\s*=|setAttribute\(\s*['"]on/, 'inline handler'],
    ];
    for (const [re, what] of rules) if (re.test(text)) offenders.push(`${path.basename(file)}: ${what}`);
  }
  assert.deepEqual(offenders, []);
});

test('webview code imports only src/shared and the bundled libraries', () => {
  const bad: string[] = [];
  for (const file of sources(UI)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/from\s+['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec);
        const rel = path.relative(path.resolve(UI, '..'), target);
        if (!rel.startsWith('webview-ui') && !rel.startsWith(path.join('src', 'shared'))) bad.push(`${path.basename(file)} -> ${spec}`);
      } else if (!['marked', 'dompurify', 'zod/mini', 'zod/v4/locales/en.js'].includes(spec)) {
        bad.push(`${path.basename(file)} -> ${spec}`);
      }
    }
  }
  assert.deepEqual(bad, []);
});

test('style.css takes every colour from the theme', () => {
  const css = readFileSync(path.join(UI, 'style.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  assert.doesNotMatch(css, /#[0-9a-f]{3,8}\b/i, 'hex colour');
  assert.doesNotMatch(css, /\b(rgba?|hsla?|hwb|lab|lch|oklch|color-mix)\(/i, 'colour function');
  assert.doesNotMatch(css, /url\(/i, 'external resource');
  for (const m of css.matchAll(/var\(\s*(--[\w-]+)/g)) assert.match(m[1]!, /^--vscode-/, m[1]);
  // Colour properties hold a theme variable or a neutral keyword, never a named colour.
  let checked = 0;
  for (const m of css.matchAll(/(?:^|[;{\s])(color|background(?:-color)?|border(?:-[a-z]+)*-color|outline-color)\s*:\s*([^;}]+)/g)) {
    const value = m[2]!.trim();
    assert.match(value, /^(var\(--vscode-[^)]*\)(,\s*var\(--vscode-[^)]*\))*\)*|transparent|inherit|currentColor|none)$/, `${m[1]}: ${value}`);
    checked++;
  }
  assert.ok(checked > 30, `only ${checked} colour declarations found: the pattern is broken`);
  const named = /:\s*[^;{}]*\b(red|green|blue|white|black|gr[ae]y|yellow|orange|purple|pink|silver)\b/i;
  assert.doesNotMatch(css.replace(/--[\w-]+/g, ''), named, 'named colour in a shorthand');
});
