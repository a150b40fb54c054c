import { FORWARDING_RULE_FIELDS, type Shape } from './forwarding-rule-fields.js';

const shapeText = (shape: Shape): string => {
  if (typeof shape === 'string') return shape;
  if ('map' in shape) return 'map of string';
  if ('message' in shape) return 'message';
  return `list of ${typeof shape.repeated === 'string' ? shape.repeated : 'message'}`;
};

const ON_PATCH: Record<string, string> = {
  patchable: 'patchable',
  immutable: 'immutable (may repeat)',
  migration: 'migration state machine',
  ignored: 'ignored (setLabels)',
  output: 'ignored (output only)',
};

/**
 * The field table of docs/coverage.md, rendered from {@link FORWARDING_RULE_FIELDS}: a test
 * checks the document holds exactly this text between its `field-table` markers.
 *
 * @example
 * ```ts
 * fieldTableMarkdown().split('\n')[0]; // '| Field | Set by | JSON | …'
 * ```
 */
export function fieldTableMarkdown(): string {
  const rows = Object.entries(FORWARDING_RULE_FIELDS).map(([name, f]) => {
    const type = f.filter;
    const enumValues = 'values' in type ? (type.values as readonly string[]).join(', ') : '';
    const cells = [
      `\`${name}\``,
      f.setBy === 'client' ? 'client' : 'output only',
      shapeText(f.shape),
      f.serverDefault ?? '',
      f.limits ?? '',
      enumValues,
      f.reference ?? '',
      ON_PATCH[f.onPatch] ?? f.onPatch,
      type.sortable ? 'filter, sort' : 'filter',
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| Field | Set by | JSON | Server default | Limits | Enum values | Reference | On patch | List |',
    '| ----- | ------ | ---- | -------------- | ------ | ----------- | --------- | -------- | ---- |',
    ...rows,
  ].join('\n');
}
