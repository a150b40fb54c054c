// What every panel shares: the status line (confirmations and warnings) and copying.
import { byId } from './dom.js';
import { StatusLine, type StatusOptions } from './status-line.js';

let shared: StatusLine | undefined;

/** The page's status line; created on first use (the region is in index.html). */
export const notices = {
  show(text: string, options: StatusOptions | 'info' | 'warning' = {}) {
    shared ??= new StatusLine(byId('status'));
    shared.show(text, typeof options === 'string' ? { kind: options } : options);
  },
};

/** A confirmation everyone sees (and screen readers hear): "Link copied". */
export const announce = (text: string) => notices.show(text);

/** Copies `text`, then says so (`said`: what to say instead of "<What> copied"). */
export async function copy(text: string, what: string, said?: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    if (said) notices.show(said, 'warning');
    else announce(`${what[0]!.toUpperCase()}${what.slice(1)} copied`);
  } catch {
    window.prompt(`Copy the ${what.toLowerCase()}:`, text);
  }
}

/** Saves text as a file through a download link. */
export function download(text: string, name: string, type = 'application/json'): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
