// The plan → execute → synthesize orchestrator (issue 11): a planner model and an executor model share one turn.
export { createOrchestrator, continuationText, type Orchestrator, type OrchestratorDeps, type OrchestratorEndpoint, type OrchestratorOptions, type SavedRun, stepExchange } from './orchestrator';
export { makePlan, parsePlan, planSchema, planMessages, needsTool, normalisePlan, DEFAULT_MAX_STEPS, type Plan, type PlanStep, type StepRecord } from './plan';
export { executeStep, executorSystemPrompt, stepPrompt, DEFAULT_ROUNDS_PER_STEP, type StepAttempt, type StepEnv, type StepInput, type StepToolFilter } from './execute';
export { synthesize, synthesisMessages, type SynthesisInput } from './synthesize';
export { clip, digestConversation, digestSteps } from './digest';
