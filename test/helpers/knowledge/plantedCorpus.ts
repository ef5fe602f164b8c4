// A planted corpus for retrieval tests: sixteen small source modules on different topics (config parsing,
// HTTP retries, dates, matrices, caches, …; files under ./corpus, kept as .ts.txt so they are not compiled)
// cut into chunks the way a structural chunker cuts them (one chunk per top-level declaration with its doc
// comment; the header block of each file is a chunk too), and questions a user would ask, each answered by
// exactly one chunk. Questions share only some words with their chunk, as people phrase them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChunkDraft, ChunkKind, KnowledgeStorePort } from '../../../src/core/knowledge/types';
import { knowledgeWrite } from './memoryKnowledgeStore';

const CORPUS_DIR = path.join(__dirname, 'corpus');

export interface CorpusFile {
  /** Workspace-relative path, e.g. src/config/parseConfig.ts. */
  path: string;
  content: string;
  chunks: ChunkDraft[];
}

export interface PlantedQuestion {
  question: string;
  /** `path#name` of the one chunk that answers it. */
  answer: string;
}

/** The corpus files with their chunks, sorted by path. */
export function loadCorpus(): CorpusFile[] {
  return walk(CORPUS_DIR)
    .filter((f) => f.endsWith('.ts.txt'))
    .sort()
    .map((full) => {
      const rel = path.relative(CORPUS_DIR, full).split(path.sep).join('/').replace(/\.txt$/, '');
      const content = readFileSync(full, 'utf8');
      return { path: rel, content, chunks: chunkByBlankLines(content) };
    });
}

/** Stores every corpus file (embed mode: chunks only, no summaries or graph); returns the chunk count. */
export function indexCorpus(store: KnowledgeStorePort, files: readonly CorpusFile[] = loadCorpus()): number {
  let n = 0;
  for (const file of files) n += store.putFile(knowledgeWrite(file.path, file.content, file.chunks)).length;
  return n;
}

const DECLARATION = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(function\*?|class|interface|type|const|let)\s+([A-Za-z_$][\w$]*)/;
const KIND: Record<string, ChunkKind> = { function: 'function', 'function*': 'function', class: 'class', interface: 'interface', type: 'type', const: 'block', let: 'block' };

/** One chunk per run of non-blank lines (the corpus keeps declarations free of blank lines). */
export function chunkByBlankLines(content: string): ChunkDraft[] {
  const lines = content.replace(/\n$/, '').split('\n');
  const chunks: ChunkDraft[] = [];
  let start = -1;
  const close = (end: number) => {
    const body = lines.slice(start, end + 1);
    const declared = body.map((l) => DECLARATION.exec(l)).find((m) => m !== null);
    chunks.push({
      kind: declared ? KIND[declared[1]!]! : 'block',
      ...(declared && { name: declared[2]! }),
      startLine: start + 1,
      endLine: end + 1,
      text: body.join('\n'),
    });
    start = -1;
  };
  lines.forEach((line, i) => {
    if (line.trim() === '') {
      if (start >= 0) close(i - 1);
    } else if (start < 0) start = i;
  });
  if (start >= 0) close(lines.length - 1);
  return chunks;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** Questions as a user would type them, each answered by one chunk. */
export const PLANTED_QUESTIONS: readonly PlantedQuestion[] = [
  { question: 'how do we turn a string like 5m or 2h into milliseconds?', answer: 'src/config/parseConfig.ts#parseDuration' },
  { question: 'where do environment variables override the port and log level?', answer: 'src/config/parseConfig.ts#applyEnvOverrides' },
  { question: 'which old setting names were renamed and trigger a deprecation warning?', answer: 'src/config/parseConfig.ts#warnDeprecatedKeys' },
  { question: 'how is the wait between retry attempts computed, is there jitter?', answer: 'src/net/httpRetry.ts#backoffDelay' },
  { question: 'read the Retry-After value when the server answers 429 too many requests', answer: 'src/net/httpRetry.ts#parseRetryAfter' },
  { question: 'stop hammering an upstream service that keeps failing', answer: 'src/net/httpRetry.ts#CircuitBreaker' },
  { question: 'show a timestamp as something like "3 days ago"', answer: 'src/time/dateFormat.ts#formatRelativeTime' },
  { question: 'what week number of the year is a given date in?', answer: 'src/time/dateFormat.ts#isoWeekNumber' },
  { question: 'add working days to a deadline without counting weekends', answer: 'src/time/dateFormat.ts#addBusinessDays' },
  { question: 'compute the inverse of a square matrix', answer: 'src/math/matrix.ts#invert' },
  { question: 'how do I get the determinant of a 3x3 matrix?', answer: 'src/math/matrix.ts#determinant' },
  { question: 'raise a matrix to the n-th power quickly', answer: 'src/math/matrix.ts#matrixPower' },
  { question: 'when the cache is over capacity, which entry gets evicted?', answer: 'src/cache/lruCache.ts#evictLeastRecentlyUsed' },
  { question: 'clean out cache entries whose time to live has passed', answer: 'src/cache/lruCache.ts#purgeExpired' },
  { question: 'what fraction of cache lookups were hits?', answer: 'src/cache/lruCache.ts#hitRate' },
  { question: 'edit distance between two strings for fuzzy matching', answer: 'src/text/strings.ts#levenshtein' },
  { question: 'make a url slug out of an article title', answer: 'src/text/strings.ts#slugify' },
  { question: 'remove colour escape codes from terminal output', answer: 'src/text/strings.ts#stripAnsi' },
  { question: 'convert a glob pattern with ** into a regular expression', answer: 'src/fs/paths.ts#globToRegExp' },
  { question: 'write a file safely so a crash never leaves it half written', answer: 'src/fs/paths.ts#writeFileAtomic' },
  { question: 'make sure a tool cannot escape the workspace folder with ../', answer: 'src/fs/paths.ts#isInsideWorkspace' },
  { question: 'check whether a JWT has expired, with some clock skew', answer: 'src/auth/tokens.ts#isTokenExpired' },
  { question: 'how are user passwords hashed and salted?', answer: 'src/auth/tokens.ts#hashPassword' },
  { question: 'generate the six digit one-time code for two-factor login', answer: 'src/auth/tokens.ts#totpCode' },
  { question: 'what happens to a job after it fails too many attempts?', answer: 'src/queue/jobQueue.ts#failJob' },
  { question: 'limit how many jobs run at the same time', answer: 'src/queue/jobQueue.ts#runWorkers' },
  { question: 'distance in kilometres between two GPS coordinates', answer: 'src/geo/distance.ts#haversineKm' },
  { question: 'is a location inside a polygon?', answer: 'src/geo/distance.ts#pointInPolygon' },
  { question: 'split a CSV line where quoted fields contain commas', answer: 'src/csv/csvParser.ts#parseCsvLine' },
  { question: 'guess whether an export uses semicolons or tabs as the delimiter', answer: 'src/csv/csvParser.ts#detectDelimiter' },
  { question: 'hide passwords and api keys before they are logged', answer: 'src/log/logger.ts#redactSecrets' },
  { question: 'rotate the log file when it gets too big', answer: 'src/log/logger.ts#rotateIfLarge' },
  { question: 'turn a hex color like #ff8800 into rgb values', answer: 'src/colors/color.ts#hexToRgb' },
  { question: 'is text readable on this background? check the contrast', answer: 'src/colors/color.ts#contrastRatio' },
  { question: 'validate a credit card number checksum', answer: 'src/validation/validators.ts#luhnCheck' },
  { question: 'compare two semantic version strings like 1.10.0 and 1.9.3', answer: 'src/validation/validators.ts#compareSemver' },
  { question: 'wait for the next event as a promise with a timeout', answer: 'src/events/eventBus.ts#waitForEvent' },
  { question: 'how do wildcard topic subscriptions match events?', answer: 'src/events/eventBus.ts#topicMatches' },
  { question: 'add sales tax to the total of an invoice', answer: 'src/billing/invoice.ts#invoiceTotal' },
  { question: 'charge only for the days used when a customer switches plan mid period', answer: 'src/billing/invoice.ts#prorate' },
  { question: "round money amounts with banker's rounding", answer: 'src/billing/invoice.ts#roundHalfEven' },
];
