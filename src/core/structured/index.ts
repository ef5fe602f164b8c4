// Structured output: one model call whose reply must be JSON of a given zod schema.
export { structuredCall, parseReply, DEFAULT_STRUCTURED_RETRIES, type StructuredCallInput, type StructuredResult, type ParsedReply } from './structuredCall';
export { StructuredOutputError } from './structuredOutputError';
export { extractJson, type JsonExtraction } from './extractJson';
export { describeIssues } from './issues';
export { responseJsonSchema } from './responseSchema';
