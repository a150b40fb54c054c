// Create validation's errors, in Compute Engine's words.

import { refuse } from '../../core/refusal.js';
import { previewText, previewValue } from '../../core/value-preview.js';

/** `Invalid value for field 'resource.<field>': '<value>'. <why>` (400 invalid). */
export const invalid = (field: string, value: unknown, why: string) =>
  refuse.invalid(
    `Invalid value for field 'resource.${field}': '${display(value)}'. ${why}`,
    `resource.${field}`,
  );

/** `Required field 'resource.<field>' not specified` (400 required). */
export const required = (field: string) =>
  refuse.required(`Required field 'resource.${field}' not specified`, `resource.${field}`);

/** A JSON value of the wrong type, as Google's JSON front end words it (400 invalid). */
export const wrongType = (path: string, protoType: string, value: unknown) =>
  refuse.invalid(`Invalid value at '${path}' (${protoType}), ${previewValue(value)}`, path);

export const unknownName = (key: string, path: string) =>
  refuse.badRequest(
    `Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`,
  );

/** Compute shows scalars as they are (long text cut short) and lists or objects as `''`. */
function display(value: unknown): string {
  if (typeof value === 'string') return previewText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
