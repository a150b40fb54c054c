// The page's one status line: what the page says back (a link copied, data applied, a link that
// could not be used as it is) in a line of the page's flow under the header, never floating over
// the results. One message at a time, the newest; screen readers hear it (a polite live region).
// Confirmations fade after a few seconds; warnings and messages with an action stay until
// dismissed or replaced.
import { h } from './dom.js';

const CONFIRMATION_MS = 6000;

export type StatusKind = 'info' | 'warning';

/** A button in the message: "Show the schema". */
export interface StatusAction {
  label: string;
  run(): void;
}

export interface StatusOptions {
  kind?: StatusKind;
  action?: StatusAction;
}

export class StatusLine {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly region: HTMLElement) {}

  /**
   * Shows `text` in place of the message before.
   *
   * @example
   * statusLine.show('Link copied');
   * statusLine.show('250 records applied', { action: { label: 'Show the schema', run } });
   */
  show(text: string, { kind = 'info', action }: StatusOptions = {}): void {
    clearTimeout(this.timer);
    const message = h('div', { class: `notice ${kind}` }, h('p', {}, text));
    if (action) {
      const button = h('button', { type: 'button', class: 'small' }, action.label);
      button.addEventListener('click', () => action.run());
      message.append(button);
    }
    if (kind === 'warning' || action) {
      const dismiss = h('button', { type: 'button', class: 'small dismiss' }, 'Dismiss');
      dismiss.addEventListener('click', () => this.clear());
      message.append(dismiss);
    } else {
      this.timer = setTimeout(() => this.clear(), CONFIRMATION_MS);
    }
    this.region.replaceChildren(message);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.region.replaceChildren();
  }
}
