// What a tool-specific digest found in one result (toolResultDigest.ts turns it into the compressed text).
export interface DigestFacts {
  /** Lines between the metadata line and the hint. */
  facts: string[];
  /** The same facts on one line, for the session summary. */
  brief: string;
  /** Something was left out: the digest says how to get it back. */
  partial: boolean;
  /** A change that succeeded: the digest says not to repeat it. */
  applied?: boolean;
}
