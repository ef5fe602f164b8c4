// What structuredCall throws when the model's reply stays unusable after its retries.

export class StructuredOutputError extends Error {
  constructor(
    /** The schema's name, e.g. "file_summary". */
    readonly schemaName: string,
    /** Model calls made (first try plus retries). */
    readonly attempts: number,
    /** The last reply exactly as the model wrote it. */
    readonly lastRaw: string,
    /** What was wrong with the last reply, one line each ("entities[2].line: expected number, received string"). */
    readonly issues: string[],
  ) {
    const shown = issues.slice(0, 3).join('; ');
    const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
    super(
      `The model's reply did not match the "${schemaName}" format after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${shown}${more}.`,
    );
    this.name = 'StructuredOutputError';
  }
}
