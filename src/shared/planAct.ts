// The message Act sends for a plan (as the user edited it), in Agent mode. Shared: the panel's "Edit plan" puts
// the same text in the message box. Pure.
export function actText(plan: string): string {
  return `Carry out this plan now, step by step:\n\n${plan.trim()}`;
}
