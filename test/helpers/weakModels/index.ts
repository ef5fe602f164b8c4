/**
 * Scripted models that behave like weak local models (7–14B, small windows): every reply is a function of
 * the request alone — the messages and tools it was sent — never of earlier calls or of our internals. They
 * forget what was cut, may believe a trimmed listing, fill schemas clumsily. The only state kept is test
 * bookkeeping (`failures`: what the model saw go wrong, for the test to assert on).
 *
 *   const agent = renameTaskModel({ trustsTrimmed: false });   // the 12-note rename task (fileTask.ts)
 *   const windowed = new WindowedScript({ window: 4096 });      // refuses over-window requests
 *   const server = await wire.start(windowed.script(agent, compressionModel('follows')), 'name');
 *   …
 *   assert.deepEqual(agent.failures, []);
 *
 * renameTaskModel({trustsTrimmed}) lists, reads, renames, completes; forgets the task when it is not in
 *   the request; trustsTrimmed: a cut listing is believed complete.
 * mcpRenameModel() the same task with whichever tools are offered (built-in, `<server>__move_file`, …,
 *   else tool_search, else it gives up); an extra unknown argument on its first call.
 * compressionModel('follows' | 'ignores') for the compression agent's requests (clumsy first, then right;
 *   or prose / empty replies).
 * chatModel() answers "What kind of document is note-NN.txt?" (chatQuestion(n)) from a visible read
 *   result, else reads first. emptyUntilNoTools() replies empty while tools are offered.
 * setupProbeModel({native: 'native' | 'json-text' | 'none', text: 'follows' | 'ignores'}) answers the setup
 *   check's requests (the read_file probe natively or in text, the two counting requests); undefined otherwise.
 * TruncatingWindow(window).script(agent, compressor): a server running `window` tokens whatever it is asked:
 *   drops the oldest messages silently, reports what it kept, records every request.
 */
export { renameTaskModel, nextRenameAction, FailureLog, FORGOT_TEXT, type ModelFn, type RenameAction, type RenameModelOptions } from './renameTaskModel';
export { readRenameState, readRenameRequest, type RenameState, type ListingSeen } from './renameState';
export { mcpRenameModel, missingToolText, pickTool, GIVE_UP_TEXT } from './mcpRenameModel';
export { compressionModel, followsCompression, followsUnderGrammar, ignoresCompression, isCompressionRequest, IGNORED_TEXT, type CompressionBehaviour } from './compressionModels';
export { chatModel, chatQuestion, chatAnswer, emptyUntilNoTools } from './chatModel';
export { TruncatingWindow, fitWindow, type WindowRecord, type ReplyFn } from './truncatingWindow';
export { readRequest, looksFailed, type RequestView, type SeenCall, type SeenMessage, type SeenResult, type OfferedTool } from './requestView';
export { indexingModel, isIndexingRequest, readIndexingPrompt, type IndexingBehaviour, type IndexingModelOptions, type IndexingPrompt, type PromptChunk } from './indexingModel';
export { setupProbeModel, type NativeHabit, type TextHabit, type ProbeModelOptions } from './probeModels';
