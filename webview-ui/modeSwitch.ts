// The mode switch (Agent, Plan, Ask) and, under a finished Plan turn, "Act" (run the plan in Agent mode) and
// "Edit plan" (the plan in the message box, Agent mode, to change before sending). The host owns the mode.
import type { ChatModeName, ChatViewState } from '../src/shared/protocol';
import { actText } from '../src/shared/planAct';
import type { HostChannel } from './host';
import { h } from './dom';

const MODES: Array<{ mode: ChatModeName; label: string; title: string }> = [
  { mode: 'agent', label: 'Agent', title: 'Agent: reads, edits files and runs commands (with your approval)' },
  { mode: 'plan', label: 'Plan', title: 'Plan: reads and searches only, then proposes a plan you can run with Act' },
  { mode: 'ask', label: 'Ask', title: 'Ask: answers without tools, from the conversation and attached code' },
];

export class ModeSwitch {
  /** Three radio buttons (a segmented control): one click to switch, the current mode always visible. */
  readonly group: HTMLElement;
  private readonly buttons = new Map<ChatModeName, HTMLButtonElement>();
  readonly bar: HTMLElement;
  private plan = '';

  constructor(
    doc: Document,
    private readonly channel: HostChannel,
    private readonly prefill: (text: string) => void,
  ) {
    this.group = h(doc, 'div', 'mode-switch');
    this.group.setAttribute('role', 'radiogroup');
    this.group.setAttribute('aria-label', 'Mode');
    for (const m of MODES) {
      const button = h(doc, 'button', 'mode-option', m.label);
      button.type = 'button';
      button.title = m.title;
      button.setAttribute('role', 'radio');
      button.addEventListener('click', () => this.choose(m.mode));
      this.buttons.set(m.mode, button);
      this.group.append(button);
    }
    this.show('agent');

    this.bar = h(doc, 'div', 'plan-actions');
    this.bar.hidden = true;
    const act = h(doc, 'button', 'plan-act', 'Act');
    act.type = 'button';
    act.title = 'Switch to Agent and carry out this plan';
    act.addEventListener('click', () => {
      this.show('agent');
      this.channel.post({ type: 'act', plan: this.plan });
    });
    const edit = h(doc, 'button', 'secondary plan-edit', 'Edit plan');
    edit.type = 'button';
    edit.title = 'Put the plan in the message box (Agent mode) to change it before sending';
    edit.addEventListener('click', () => {
      this.choose('agent');
      this.prefill(actText(this.plan));
    });
    this.bar.append(act, edit);
  }

  /** The host's mode (on load, or after Act). */
  show(mode: ChatModeName): void {
    for (const [m, button] of this.buttons) button.setAttribute('aria-checked', m === mode ? 'true' : 'false');
  }

  /** Act and Edit plan under the answer of the last turn, when it was a Plan turn and has ended. */
  update(state: ChatViewState): void {
    this.plan = state.busy ? '' : planOf(state);
    this.bar.hidden = this.plan === '';
  }

  private choose(mode: ChatModeName): void {
    this.show(mode);
    this.channel.post({ type: 'setMode', mode });
  }
}

/** The answer of the last turn when that turn was in Plan mode ('' otherwise). */
function planOf(state: ChatViewState): string {
  const items = state.items;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind !== 'user') continue;
    if (item.mode !== 'plan') return '';
    const answer = items.slice(i + 1).filter((it) => it.kind === 'assistant' && it.text.trim() !== '').at(-1);
    return answer && answer.kind === 'assistant' ? answer.text : '';
  }
  return '';
}
