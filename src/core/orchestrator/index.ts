// The plan → execute → synthesize orchestrator (issue 11): a planner model and an executor model share one turn.
export { createOrchestrator, type Orchestrator, type OrchestratorDeps, type OrchestratorEndpoint, type OrchestratorOptions, type SavedRun } from './orchestrator';
export { continuationText, stepExchange } from './stepHistory';
export { makePlan, parsePlan, planSchema, planMessages, needsTool, normalisePlan, DEFAULT_MAX_STEPS, type Plan, type PlanStep, type StepRecord } from './planRequest';
export { executeStep, stepPrompt, EXECUTOR_SYSTEM_PROMPT, DEFAULT_STALL_ROUNDS, type RoundBudget, type StepAttempt, type StepEnv, type StepInput } from './execute';
export { selectRunTools, type StepToolFilter } from './runTools';
export { synthesize, synthesisMessages, NOT_DONE_MARK, type Synthesis, type SynthesisInput } from './synthesize';
export { clip, digestConversation, digestSteps } from './stepShortening';
