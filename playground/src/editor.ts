// The filter editor: CodeMirror 6 with highlighting from the filter's tree, squiggles for
// problems (message on hover), the AST view's selection, and the cursor's line:column.
import { autocompletion, type CompletionSource, completionKeymap } from '@codemirror/autocomplete';
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
  hoverTooltip,
  keymap,
  placeholder,
  type Tooltip,
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
  /** Completions (fields, operators, values, keywords). */
  completions: CompletionSource;
  /** Docs for what is under the pointer. */
  hover(view: EditorView, pos: number): Tooltip | null;
}

/** A replacement that repairs a problem: "did you mean" suggestions and hints. */
export interface QuickFix {
  label: string;
  from: number;
  to: number;
  text: string;
}

/** A problem or warning shown in the editor, with its fix when there is one. */
export interface EditorNote {
  from: number;
  to: number;
  severity: 'error' | 'warning';
  message: string;
  source?: string;
  fix?: QuickFix;
}

const DID_YOU_MEAN = /did you mean '([^']+)'\?/;

/** The quick fix of a problem whose message suggests a replacement. */
export function problemFix(problem: Problem): QuickFix | undefined {
  const match = DID_YOU_MEAN.exec(problem.message);
  if (!match || problem.span.end <= problem.span.start) return undefined;
  return {
    label: `Replace with ${match[1]}`,
    from: problem.span.start,
    to: problem.span.end,
    text: match[1]!,
  };
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
  // The completion list in the page's colours (CodeMirror's defaults fail contrast in dark mode).
  '.cm-completionMatchedText': {
    color: 'var(--accent)',
    textDecoration: 'none',
    fontWeight: '650',
  },
  '.cm-completionDetail': { color: 'var(--muted)', fontStyle: 'normal', marginLeft: '1em' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': {
    backgroundColor: 'var(--selection)',
    color: 'var(--fg)',
  },
  '.cm-tooltip-autocomplete ul li[aria-selected] .cm-completionMatchedText, .cm-tooltip-autocomplete ul li[aria-selected] .cm-completionDetail':
    { color: 'var(--fg)' },
  '.cm-diagnosticAction': { backgroundColor: 'var(--accent)', color: 'var(--panel)' },
});

export class FilterEditor {
  readonly view: EditorView;
  private readonly invalid = new Compartment();
  /** The fixes of the notes shown now, in text order. */
  fixes: QuickFix[] = [];

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
              // Ctrl+. applies the first quick fix, as in the editors people know.
              key: 'Mod-.',
              run: () => {
                const fix = this.fixes[0];
                if (fix) this.applyFix(fix);
                return fix !== undefined;
              },
            },
            {
              key: 'Shift-Alt-f',
              run: () => {
                options.onFormat();
                return true;
              },
            },
            ...completionKeymap,
            ...historyKeymap,
            ...defaultKeymap,
          ]),
          placeholder('Type a filter, such as labels.env = prod AND NOT name:web-*'),
          EditorView.lineWrapping,
          autocompletion({ override: [options.completions], icons: false }),
          hoverTooltip(options.hover, { hideOnChange: true }),
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

  /**
   * Shows problems and warnings as squiggles with their messages (and fixes) on hover; none
   * clears them. Errors make the editor aria-invalid.
   */
  setNotes(notes: readonly EditorNote[]): void {
    const length = this.view.state.doc.length;
    const clamp = (n: number) => Math.min(Math.max(n, 0), length);
    this.fixes = notes.flatMap((n) => (n.fix ? [n.fix] : []));
    const diagnostics: Diagnostic[] = notes.map((n) => {
      const fix = n.fix;
      return {
        from: clamp(n.from),
        to: clamp(Math.max(n.to, n.from)),
        severity: n.severity,
        message: n.message,
        source: n.source,
        actions: fix ? [{ name: fix.label, apply: () => this.applyFix(fix) }] : undefined,
      };
    });
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics));
    const invalid = notes.some((n) => n.severity === 'error');
    this.view.dispatch({
      effects: this.invalid.reconfigure(
        invalid ? EditorView.contentAttributes.of({ 'aria-invalid': 'true' }) : [],
      ),
    });
  }

  /** Replaces a fix's span with its text and puts the cursor after it. */
  applyFix(fix: QuickFix): void {
    const length = this.view.state.doc.length;
    if (fix.to > length) return;
    this.view.dispatch({
      changes: { from: fix.from, to: fix.to, insert: fix.text },
      selection: EditorSelection.cursor(fix.from + fix.text.length),
    });
    this.view.focus();
  }

  get hasFocus(): boolean {
    return this.view.hasFocus;
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
