// The syntax tree as an ARIA tree: arrow keys move, Left/Right fold, Enter jumps to the text.
// Selecting a node highlights its source text; the editor's cursor marks the node under it.
import { flatten, nodeAt, type TreeNode } from './ast-model.js';
import { h } from './dom.js';

export interface AstViewOptions {
  /** A node was selected (focus or click): highlight its text. */
  onSelect(node: TreeNode | null): void;
  /** Enter or double-click: select the node's text in the editor. */
  onActivate(node: TreeNode): void;
}

export class AstView {
  private tree: TreeNode | undefined;
  private items = new Map<string, HTMLLIElement>();
  private cursorId: string | undefined;

  constructor(
    private readonly container: HTMLElement,
    private readonly options: AstViewOptions,
  ) {}

  /** Shows a tree, or a message when there is none (the filter does not parse). */
  render(tree: TreeNode | undefined, message?: string): void {
    this.tree = tree;
    this.items.clear();
    this.cursorId = undefined;
    this.options.onSelect(null);
    if (!tree) {
      this.container.replaceChildren(h('p', { class: 'hint' }, message ?? ''));
      return;
    }
    const root = h('ul', { role: 'tree', 'aria-labelledby': 'ast-heading', class: 'tree' });
    root.append(this.item(tree, 1));
    this.container.replaceChildren(root);
    // A new tree starts at its root, whose focus ring must be in view.
    this.container.scrollTop = 0;
    this.items.get(tree.id)?.setAttribute('tabindex', '0');
  }

  /**
   * Marks the node under the editor's cursor; `reveal` scrolls it into view (only while the person
   * moves the cursor: on load the cursor sits at the end, and the tree should show its root).
   */
  markCursor(offset: number, reveal: boolean): void {
    if (!this.tree) return;
    const node = nodeAt(this.tree, offset);
    if (node.id === this.cursorId) return;
    if (this.cursorId) this.items.get(this.cursorId)?.classList.remove('at-cursor');
    this.cursorId = node.id;
    const item = this.items.get(node.id);
    if (!item) return;
    item.classList.add('at-cursor');
    if (!reveal) return;
    const row = item.firstElementChild as HTMLElement;
    const box = this.container.getBoundingClientRect();
    const r = row.getBoundingClientRect();
    if (r.top < box.top) this.container.scrollTop -= box.top - r.top;
    else if (r.bottom > box.bottom) this.container.scrollTop += r.bottom - box.bottom;
  }

  private item(node: TreeNode, level: number): HTMLLIElement {
    const row = h(
      'span',
      { class: 'node-row' },
      h('span', { class: 'node-kind' }, node.kind),
      node.detail ? h('span', { class: 'node-detail' }, node.detail) : null,
      h('span', { class: 'node-span' }, `${node.span.start}–${node.span.end}`),
    );
    const li = h(
      'li',
      {
        role: 'treeitem',
        'aria-level': level,
        'aria-selected': 'false',
        'aria-expanded': node.children.length > 0 ? 'true' : null,
        tabindex: '-1',
        'data-node': node.id,
      },
      row,
    );
    if (node.children.length > 0) {
      const group = h('ul', { role: 'group' });
      for (const child of node.children) group.append(this.item(child, level + 1));
      li.append(group);
    }
    li.addEventListener('click', (event) => {
      event.stopPropagation();
      this.focusItem(node.id);
    });
    li.addEventListener('dblclick', (event) => {
      event.stopPropagation();
      this.options.onActivate(node);
    });
    li.addEventListener('focus', (event) => {
      if (event.target === li) this.select(node);
    });
    li.addEventListener('keydown', (event) => {
      if (event.target !== li) return;
      if (this.onKey(event, node)) event.preventDefault();
    });
    this.items.set(node.id, li);
    return li;
  }

  private select(node: TreeNode) {
    for (const [id, li] of this.items) {
      const selected = id === node.id;
      li.setAttribute('aria-selected', String(selected));
      li.setAttribute('tabindex', selected ? '0' : '-1');
    }
    this.options.onSelect(node);
  }

  private focusItem(id: string | undefined) {
    if (id) this.items.get(id)?.focus();
  }

  private visible(): TreeNode[] {
    if (!this.tree) return [];
    const out: TreeNode[] = [];
    const walk = (n: TreeNode) => {
      out.push(n);
      if (this.items.get(n.id)?.getAttribute('aria-expanded') !== 'false') n.children.forEach(walk);
    };
    walk(this.tree);
    return out;
  }

  private onKey(event: KeyboardEvent, node: TreeNode): boolean {
    const visible = this.visible();
    const index = visible.findIndex((n) => n.id === node.id);
    const li = this.items.get(node.id)!;
    const expanded = li.getAttribute('aria-expanded');
    const parentId = node.id.includes('.') ? node.id.slice(0, node.id.lastIndexOf('.')) : undefined;
    switch (event.key) {
      case 'ArrowDown':
        this.focusItem(visible[index + 1]?.id);
        return true;
      case 'ArrowUp':
        this.focusItem(visible[index - 1]?.id);
        return true;
      case 'Home':
        this.focusItem(visible[0]?.id);
        return true;
      case 'End':
        this.focusItem(visible[visible.length - 1]?.id);
        return true;
      case 'ArrowRight':
        if (expanded === 'false') li.setAttribute('aria-expanded', 'true');
        else if (expanded === 'true') this.focusItem(node.children[0]?.id);
        return true;
      case 'ArrowLeft':
        if (expanded === 'true') li.setAttribute('aria-expanded', 'false');
        else this.focusItem(parentId);
        return true;
      case 'Enter':
        this.options.onActivate(node);
        return true;
      default:
        return false;
    }
  }

  /** Every node id currently shown (for tests and debugging). */
  nodeIds(): string[] {
    return this.tree ? flatten(this.tree).map((n) => n.id) : [];
  }
}
