// Moved to src/persistence/storedContextState.ts (the editor stores sessions too); kept for existing imports.
export { contextStateKey, decodeContextState, encodeContextState } from '../persistence/storedContextState';
