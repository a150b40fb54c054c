// Visible messages: what used to reach only screen readers ("Link copied", a link that could not
// be read) now shows on screen too, in a polite live region. Confirmations fade after a few
// seconds; warnings stay until dismissed, since they say the page is not what the link held.
import { h } from './dom.js';

const CONFIRMATION_MS = 4000;
const MAX_SHOWN = 4;

export type NoticeKind = 'info' | 'warning';

export class Notices {
  constructor(private readonly region: HTMLElement) {}

  /** Shows `text`; a warning has a Dismiss button and no timeout. */
  show(text: string, kind: NoticeKind = 'info'): void {
    const notice = h('div', { class: `notice ${kind}` }, h('p', {}, text));
    if (kind === 'warning') {
      const dismiss = h('button', { type: 'button', class: 'dismiss' }, 'Dismiss');
      dismiss.addEventListener('click', () => notice.remove());
      notice.append(dismiss);
    } else {
      setTimeout(() => notice.remove(), CONFIRMATION_MS);
    }
    this.region.append(notice);
    while (this.region.childElementCount > MAX_SHOWN) this.region.firstElementChild?.remove();
  }
}
