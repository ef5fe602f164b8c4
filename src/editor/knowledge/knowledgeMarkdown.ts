// What "show the summary" of an indexed file displays: its summary, each chunk's lines and summary, its entities
// and relations, as Markdown. Pure (unit-tested).
import type { ChunkRecord, Entity, IndexedFile, Relation } from '../../core/knowledge/types';
import { fileDescription } from './knowledgeRows';

export function renderKnowledgeMarkdown(
  file: IndexedFile,
  chunks: readonly ChunkRecord[],
  entities: readonly Entity[],
  relations: readonly Relation[],
  now: number,
): string {
  const out = [`# ${file.path}`, '', `*${fileDescription(file, now)}*`, ''];
  if (file.note) out.push(`> ${file.note}`, '');
  out.push(file.summary ? file.summary.trim() : '_No summary: the file was not indexed fully._', '');
  if (chunks.length) {
    out.push('## Chunks', '');
    for (const c of chunks) {
      const name = c.name ? ` \`${c.name}\`` : '';
      out.push(`- **${c.startLine === c.endLine ? `line ${c.startLine}` : `lines ${c.startLine}-${c.endLine}`}** ${c.kind}${name}${c.summary ? ` — ${c.summary.trim()}` : ''}`);
    }
    out.push('');
  }
  if (entities.length) {
    out.push('## Entities', '');
    for (const e of entities) out.push(`- \`${e.name}\` ${e.kind}, line ${e.line}`);
    out.push('');
  }
  if (relations.length) {
    out.push('## Relations', '');
    for (const r of relations) out.push(`- \`${r.from}\` ${r.kind} \`${r.to}\`${r.line ? ` (line ${r.line})` : ''}`);
    out.push('');
  }
  return out.join('\n');
}
