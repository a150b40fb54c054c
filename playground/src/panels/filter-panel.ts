// The Filter panel: the editor (completion and hover from the schema and data, squiggles, quick
// fixes), the style badge, cursor and timings, the error with its caret, warnings, and the
// syntax tree linked to the text.
import { parseFilter, printFilter } from '@listkit/query';
import type { Actions } from '../actions.js';
import { buildTree, type TreeNode } from '../ast-model.js';
import { AstView } from '../ast-view.js';
import { filterCompletions, filterHover } from '../completion.js';
import { byId, formatMs, h, showError } from '../dom.js';
import { type EditorNote, FilterEditor, problemFix, type QuickFix } from '../editor.js';
import { type Evaluation, STYLE_NAMES } from '../engine.js';
import { filterHints } from '../hints.js';
import type { Store } from '../store.js';
import { announce, notices } from '../ui.js';

export function fixButton(fix: QuickFix, apply: (fix: QuickFix) => void): HTMLElement {
  const button = h('button', { type: 'button', class: 'quick-fix' }, fix.label);
  button.addEventListener('click', () => apply(fix));
  return button;
}

export function mountFilterPanel(store: Store, actions: Actions): FilterEditor {
  const el = {
    styleBadge: byId('style-badge'),
    cursor: byId('cursor-position'),
    timings: byId('timings'),
    filterError: byId('filter-error'),
    quickFixes: byId('quick-fixes'),
    filterWarnings: byId('filter-warnings'),
  };
  let cursorOffset = 0;
  // Created first: the editor reports its cursor while it is being built.
  const astView = new AstView(byId('ast'), {
    onSelect: (node: TreeNode | null) => editor.highlightSpan(node?.span ?? null),
    onActivate: (node: TreeNode) => editor.select(node.span),
  });
  const editor: FilterEditor = new FilterEditor({
    parent: byId('filter'),
    doc: '',
    onChange: (text) => actions.setFilter(text),
    onRunNow: () => actions.run(),
    onFormat() {
      try {
        editor.setText(printFilter(parseFilter(editor.text)));
        announce('Filter formatted');
      } catch {
        notices.show('The filter does not parse, so it cannot be formatted', 'warning');
      }
    },
    onCursor(offset, line, column) {
      cursorOffset = offset;
      el.cursor.textContent = `Ln ${line}, Col ${column}`;
      // Reveal the node only while the person works in the editor, not when a link loads.
      astView.markCursor(offset, document.activeElement?.closest('.cm-editor') != null);
    },
    completions: filterCompletions({
      fields: () => store.view.fields,
      resources: () => store.view.resources,
    }),
    hover: filterHover(() => store.view.fields),
  });

  const showNotes = (result: Evaluation) => {
    const notes: EditorNote[] = (result.error?.problems ?? []).map((p) => ({
      from: p.span.start,
      to: p.span.end,
      severity: 'error',
      message: `${p.message} (${p.line}:${p.column})`,
      source: p.code,
      fix: problemFix(p),
    }));
    const hints = result.compiled ? filterHints(result.compiled.checked, store.view.resources) : [];
    for (const hint of hints) {
      notes.push({
        from: hint.span.start,
        to: hint.span.end,
        severity: 'warning',
        message: hint.message,
        fix: hint.fix && { ...hint.fix, from: hint.span.start, to: hint.span.end },
      });
    }
    editor.setNotes(notes);
    el.filterWarnings.replaceChildren(...hints.map((hint) => h('li', {}, hint.message)));
    el.quickFixes.replaceChildren(
      ...editor.fixes.map((fix) => fixButton(fix, editor.applyFix.bind(editor))),
    );
    if (editor.fixes.length > 0)
      el.quickFixes.prepend(h('span', { class: 'hint' }, 'Quick fix (Ctrl+.):'));
  };

  store.on('evaluation', () => {
    const result = store.view.evaluation;
    if (!result) return;
    const n = store.view.resources.length;
    el.styleBadge.textContent = STYLE_NAMES[result.style];
    el.styleBadge.dataset.style = result.style;
    showNotes(result);
    if (result.error) {
      showError(el.filterError, result.error.format());
      el.timings.textContent = `checked in ${formatMs(result.compileMs)}`;
    } else if (result.internalError) {
      showError(
        el.filterError,
        `Internal error in the filter engine: ${result.internalError.message}\nThis is a bug; please report it with the link of this page.`,
      );
    } else {
      showError(el.filterError, undefined);
      el.timings.textContent = `parse + check + compile ${formatMs(result.compileMs)} · evaluate ${n} resources ${formatMs(result.evalMs)}`;
    }
    if (result.ast) {
      astView.render(buildTree(result.ast));
      astView.markCursor(cursorOffset, false);
    } else {
      astView.render(undefined, 'The filter does not parse; the tree appears once it does.');
    }
  });
  store.on('filter-replaced', () => {
    if (editor.text !== store.state.filter) editor.setText(store.state.filter);
    actions.scheduleRun.cancel();
  });
  return editor;
}
