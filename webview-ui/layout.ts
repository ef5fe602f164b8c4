// Builds the panel's fixed frame once: toolbar (model, context meter, new chat), the conversation,
// the status line and the composer. Accessible names here are what the e2e tests rely on.
import { h } from './dom';

export interface Layout {
  root: HTMLElement;
  modelPicker: HTMLSelectElement;
  /** Beside the picker: the selected model's window and vision/tools badges. */
  modelBadges: HTMLElement;
  refreshModels: HTMLButtonElement;
  modelError: HTMLElement;
  newChat: HTMLButtonElement;
  contextMeter: HTMLMeterElement;
  contextText: HTMLElement;
  hotContextToggle: HTMLButtonElement;
  hotContextPanel: HTMLElement;
  historyToggle: HTMLButtonElement;
  historyPanel: HTMLElement;
  conversation: HTMLElement;
  reviewPanel: HTMLElement;
  status: HTMLElement;
  input: HTMLTextAreaElement;
  inputError: HTMLElement;
  send: HTMLButtonElement;
  stop: HTMLButtonElement;
}

export function buildLayout(doc: Document, mount: HTMLElement): Layout {
  const root = h(doc, 'div', 'app');

  const toolbar = h(doc, 'div', 'toolbar');
  const modelPicker = h(doc, 'select', 'model-picker');
  modelPicker.setAttribute('aria-label', 'Model');
  modelPicker.title = 'Model';
  // VS Code's own icons (codicons), as its chat view has them; the names stay as aria-labels and tooltips.
  const refreshModels = iconButton(doc, 'Refresh models', 'refresh-models', 'refresh');
  refreshModels.title = 'Refresh the model list';
  const newChat = iconButton(doc, 'New chat', 'new-chat', 'add');
  newChat.title = 'New chat';
  const historyToggle = iconButton(doc, 'History', 'history-toggle', 'history');
  historyToggle.setAttribute('aria-expanded', 'false');
  historyToggle.title = 'Past sessions: open, rename, delete, export';
  const modelBadges = h(doc, 'span', 'model-badges');
  modelBadges.hidden = true;
  toolbar.append(modelPicker, modelBadges, refreshModels, historyToggle, newChat);

  const modelError = h(doc, 'div', 'model-error');
  modelError.hidden = true;

  const infoBar = h(doc, 'div', 'info-bar');
  const context = h(doc, 'div', 'context');
  const contextMeter = h(doc, 'meter', 'context-meter');
  contextMeter.setAttribute('aria-label', 'Context');
  contextMeter.min = 0;
  contextMeter.max = 1;
  contextMeter.value = 0;
  const contextText = h(doc, 'span', 'context-text', '0 tokens');
  contextText.setAttribute('aria-hidden', 'true'); // the meter's aria-valuetext says the same
  context.append(contextMeter, contextText);
  const hotContextToggle = button(doc, 'What the model knows', 'link-button hot-context-toggle');
  hotContextToggle.setAttribute('aria-expanded', 'false');
  infoBar.append(context, hotContextToggle);

  const hotContextPanel = h(doc, 'section', 'hot-context');
  hotContextPanel.setAttribute('aria-label', 'What the model knows');
  hotContextPanel.id = 'hot-context';
  hotContextPanel.hidden = true;
  hotContextToggle.setAttribute('aria-controls', hotContextPanel.id);

  const historyPanel = h(doc, 'section', 'history');
  historyPanel.setAttribute('aria-label', 'History');
  historyPanel.id = 'session-history';
  historyPanel.hidden = true;
  historyToggle.setAttribute('aria-controls', historyPanel.id);

  const conversation = h(doc, 'div', 'conversation');
  conversation.setAttribute('role', 'log');
  conversation.setAttribute('aria-label', 'Conversation');
  conversation.tabIndex = 0;

  // The files the last turn changed (Keep / Undo / diff): between the conversation and the message box.
  const reviewPanel = h(doc, 'section', 'turn-review');
  reviewPanel.setAttribute('aria-label', 'Changed files');
  reviewPanel.hidden = true;

  const status = h(doc, 'div', 'status-line');
  status.setAttribute('role', 'status');
  status.hidden = true;

  const composer = h(doc, 'div', 'composer');
  const input = h(doc, 'textarea', 'message-input');
  input.setAttribute('aria-label', 'Message');
  input.placeholder = 'Ask Local Harness… (Enter to send, Shift+Enter for a new line)';
  input.rows = 3;
  const inputError = h(doc, 'div', 'input-error');
  inputError.setAttribute('role', 'alert');
  inputError.hidden = true;
  const actions = h(doc, 'div', 'composer-actions');
  const stop = button(doc, 'Stop', 'secondary stop');
  const send = button(doc, 'Send', 'primary send');
  actions.append(stop, send);
  composer.append(input, inputError, actions);

  root.append(toolbar, modelError, infoBar, hotContextPanel, historyPanel, conversation, reviewPanel, status, composer);
  mount.replaceChildren(root);
  return {
    root,
    modelBadges,
    modelPicker,
    refreshModels,
    modelError,
    newChat,
    contextMeter,
    contextText,
    hotContextToggle,
    hotContextPanel,
    historyToggle,
    historyPanel,
    conversation,
    reviewPanel,
    status,
    input,
    inputError,
    send,
    stop,
  };
}

function iconButton(doc: Document, label: string, className: string, icon: string): HTMLButtonElement {
  const b = button(doc, label, `icon-button ${className}`, '');
  b.setAttribute('aria-label', label);
  const glyph = h(doc, 'span', `codicon codicon-${icon}`);
  glyph.setAttribute('aria-hidden', 'true');
  b.append(glyph);
  return b;
}

function button(doc: Document, label: string, className: string, text = label): HTMLButtonElement {
  const b = h(doc, 'button', className, text);
  b.type = 'button';
  if (text !== label) b.setAttribute('aria-label', label);
  return b;
}
