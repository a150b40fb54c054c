// What every panel shares: the notices region (confirmations and warnings) and copying.
import { byId } from './dom.js';
import { Notices } from './notices.js';

let shared: Notices | undefined;

/** The page's notices; created on first use (the region is in index.html). */
export const notices = {
  show(text: string, kind: 'info' | 'warning' = 'info') {
    shared ??= new Notices(byId('notices'));
    shared.show(text, kind);
  },
};

/** A confirmation everyone sees (and screen readers hear): "Link copied". */
export const announce = (text: string) => notices.show(text);

export async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    announce(`${what[0]!.toUpperCase()}${what.slice(1)} copied`);
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
