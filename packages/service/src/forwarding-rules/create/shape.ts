// The body's JSON shape (proto3 JSON: null means unset; unknown names and wrong types are 400).

import { refuse } from '../../core/refusal.js';
import { previewText } from '../../core/value-preview.js';
import {
  FORWARDING_RULE_FIELDS,
  type MessageShape,
  type Scalar,
  type Shape,
} from '../forwarding-rule-fields.js';
import { unknownName, wrongType } from './errors.js';
import { FORWARDING_RULE_LIMITS } from './patterns-and-limits.js';

/** The body's shape: every field's, from the field table. */
const RESOURCE: MessageShape = Object.fromEntries(
  Object.entries(FORWARDING_RULE_FIELDS).map(([name, spec]) => [name, spec.shape]),
);

const PROTO_TYPES: Record<Scalar, string> = {
  string: 'TYPE_STRING',
  enum: 'TYPE_ENUM',
  bool: 'TYPE_BOOL',
  uint64: 'TYPE_UINT64',
  float: 'TYPE_FLOAT',
};

function parseMessage(value: unknown, shape: MessageShape, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw wrongType(path, 'TYPE_MESSAGE', value);
  }
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    const fieldShape = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!fieldShape) throw unknownName(key, path);
    const parsed = parseValue(raw, fieldShape, `${path}.${key}`);
    if (parsed !== undefined) out[key] = parsed;
  }
  return out;
}

function parseValue(raw: unknown, shape: Shape, path: string): unknown {
  if (raw === null) return undefined;
  if (typeof shape === 'string') return parseScalar(raw, shape, path);
  if ('repeated' in shape) {
    const item = shape.repeated;
    if (!Array.isArray(raw)) {
      throw wrongType(path, typeof item === 'string' ? PROTO_TYPES[item] : 'TYPE_MESSAGE', raw);
    }
    return raw.map((element, i) =>
      typeof item === 'string'
        ? parseScalar(element, item, `${path}[${i}]`)
        : parseMessage(element, item.message, `${path}[${i}]`),
    );
  }
  if ('map' in shape) {
    if (typeof raw !== 'object' || Array.isArray(raw)) throw wrongType(path, 'TYPE_MESSAGE', raw);
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value !== 'string') {
        throw wrongType(`${path}.${previewText(key)}`, 'TYPE_STRING', value);
      }
    }
    return raw;
  }
  return parseMessage(raw, shape.message, path);
}

function parseScalar(raw: unknown, type: Scalar, path: string): unknown {
  switch (type) {
    case 'string':
    case 'enum':
      if (typeof raw === 'string') return boundedText(raw, path);
      break;
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      break;
    case 'uint64':
      if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return String(raw);
      if (typeof raw === 'string' && /^\d+$/.test(raw)) return raw;
      break;
    case 'float':
      // proto3 JSON: a number, or a string holding one ("NaN" and "Infinity" included).
      if (typeof raw === 'number') return raw;
      if (typeof raw === 'string' && raw.trim() !== '') {
        const n = Number(raw);
        if (!Number.isNaN(n) || raw === 'NaN') return n;
      }
      break;
  }
  throw wrongType(path, PROTO_TYPES[type], raw);
}

/** Refuses text longer than {@link FORWARDING_RULE_LIMITS}.text characters (code points). */
function boundedText(text: string, path: string): string {
  const limit = FORWARDING_RULE_LIMITS.text;
  if (text.length <= limit) return text; // a UTF-16 length bounds the count of code points
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  if (count <= limit) return text;
  throw refuse.invalid(
    `Invalid value for field '${path}': '${previewText(text)}'. Must be at most ${limit} characters long.`,
    path,
  );
}

/**
 * Checks a forwarding rule's JSON shape (proto3 JSON: known names, value types, bounded text)
 * and returns it with `null`s dropped and uint64 numbers as strings. Patch and seed run it too.
 */
export function parseForwardingRuleShape(body: unknown): Record<string, unknown> {
  return parseMessage(body, RESOURCE, 'resource');
}
