// The filter editor: CodeMirror 6 with highlighting from the filter's tree, squiggles for
// problems (message on hover), the AST view's selection, and the cursor's line:column.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { type Diagnostic, setDiagnostics } from '@codemirror/lint';
import {
  Compartment,
  EditorSelection,
  EditorState,
  StateEffect,
  StateField,
} from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  keymap,
  placeholder,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import type { Problem, Span } from '@listkit/query';
import { highlightTokens } from './highlight.js';

export interface FilterEditorOptions {
  parent: HTMLElement;
  doc: string;
  /** Every edit. */
  onChange(text: string): void;
  /** Ctrl/Cmd+Enter. */
  onRunNow(): void;
  /** Shift+Alt+F. */
  onFormat(): void;
  /** Cursor moves: offset (UTF-16), 1-based line, 1-based column in code points. */
  onCursor(offset: number, line: number, column: number): void;
}

const highlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = build(view.state.doc.toString());
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = build(update.state.doc.toString());
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

function build(text: string): DecorationSet {
  const ranges = highlightTokens(text)
    .filter((t) => t.to <= text.length && t.from < t.to)
    .map((t) => Decoration.mark({ class: `tok-${t.kind}` }).range(t.from, t.to));
  return Decoration.set(ranges, true);
}

const setAstSpan = StateEffect.define<Span | null>();
const astMark = Decoration.mark({ class: 'cm-ast-selected' });
const astHighlight = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    let next = value.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setAstSpan)) continue;
      const span = effect.value;
      const length = tr.state.doc.length;
      next =
        span && span.end > span.start && span.end <= length
          ? Decoration.set([astMark.range(span.start, span.end)])
          : Decoration.none;
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  '&': {
    color: 'var(--fg)',
    backgroundColor: 'var(--editor-bg)',
    border: '1px solid var(--border)',
    borderRadius: '6px',
    fontSize: '15px',
  },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '1px' },
  '.cm-content': {
    fontFamily: 'var(--mono)',
    padding: '10px 4px',
    minHeight: '3.2em',
    caretColor: 'var(--fg)',
  },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--selection) !important',
  },
  '.cm-placeholder': { color: 'var(--muted)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--panel)',
    color: 'var(--fg)',
    border: '1px solid var(--border)',
  },
  '.cm-tooltip-lint': { fontFamily: 'var(--mono)', fontSize: '13px' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--error)' },
});

export class FilterEditor {
  readonly view: EditorView;
  private readonly invalid = new Compartment();

  constructor(options: FilterEditorOptions) {
    const reportCursor = (state: EditorState) => {
      const head = state.selection.main.head;
      const line = state.doc.lineAt(head);
      const column = [...line.text.slice(0, head - line.from)].length + 1;
      options.onCursor(head, line.number, column);
    };
    this.view = new EditorView({
      parent: options.parent,
      state: EditorState.create({
        doc: options.doc,
        extensions: [
          history(),
          drawSelection(),
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                options.onRunNow();
                return true;
              },
            },
            {
              key: 'Shift-Alt-f',
              run: () => {
                options.onFormat();
                return true;
              },
            },
            ...historyKeymap,
            ...defaultKeymap,
          ]),
          placeholder('Type a filter, such as labels.env = prod AND NOT name:web-*'),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({
            'aria-labelledby': 'filter-heading',
            'aria-describedby': 'filter-hint filter-error',
            spellcheck: 'false',
            autocapitalize: 'off',
            autocorrect: 'off',
            translate: 'no',
          }),
          this.invalid.of([]),
          highlighter,
          astHighlight,
          theme,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) options.onChange(update.state.doc.toString());
            if (update.docChanged || update.selectionSet) reportCursor(update.state);
          }),
        ],
      }),
    });
    reportCursor(this.view.state);
  }

  get text(): string {
    return this.view.state.doc.toString();
  }

  /** Replaces the whole text, keeping the cursor at its end. */
  setText(text: string): void {
    if (text === this.text) return;
    this.view.dispatch({
      changes: { from: 0, to: this.view.state.doc.length, insert: text },
      selection: EditorSelection.cursor(text.length),
    });
  }

  /** Shows problems as squiggles with their messages on hover; none clears them. */
  setProblems(problems: readonly Problem[]): void {
    const length = this.view.state.doc.length;
    const diagnostics: Diagnostic[] = problems.map((p) => ({
      from: Math.min(p.span.start, length),
      to: Math.min(Math.max(p.span.end, p.span.start), length),
      severity: 'error',
      message: `${p.message} (${p.line}:${p.column})`,
      source: p.code,
    }));
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics));
    this.view.dispatch({
      effects: this.invalid.reconfigure(
        problems.length > 0 ? EditorView.contentAttributes.of({ 'aria-invalid': 'true' }) : [],
      ),
    });
  }

  /** Highlights the text of the AST node selected in the tree. */
  highlightSpan(span: Span | null): void {
    this.view.dispatch({ effects: setAstSpan.of(span) });
  }

  /** Selects a span and focuses the editor. */
  select(span: Span): void {
    const length = this.view.state.doc.length;
    this.view.dispatch({
      selection: EditorSelection.range(Math.min(span.start, length), Math.min(span.end, length)),
      scrollIntoView: true,
    });
    this.view.focus();
  }

  focus(): void {
    this.view.focus();
  }
}
