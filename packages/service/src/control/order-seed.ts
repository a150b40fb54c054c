import { isRfc3339 } from '../core/rfc3339.js';
import { previewText, previewValue } from '../core/value-preview.js';
import { errors } from '../http/api-error.js';
import type { OrderSeed } from '../orders/order.js';

/**
 * The longest text an order seed field may hold. Play publishes no limits for order ids or
 * purchase tokens; 255 characters hold every real one (order ids are ~24, tokens ~150) and keep
 * the state and its answers bounded (docs/coverage.md).
 */
export const ORDER_TEXT_LIMIT = 255;

type FieldRule =
  | 'text'
  | 'bool'
  /** Money's `nanos`: an integer of magnitude below 1e9. */
  | 'nanos'
  | 'time'
  | { readonly oneOf: readonly string[] }
  | { readonly fields: Readonly<Record<string, FieldRule>>; readonly required: readonly string[] };

const MONEY: FieldRule = {
  fields: { currencyCode: 'text', units: 'text', nanos: 'nanos' },
  required: ['currencyCode', 'units'],
};

/** Every field of an order seed and its rule (see `OrderState`). */
const ORDER_FIELDS: Readonly<Record<string, FieldRule>> = {
  packageName: 'text',
  orderId: 'text',
  kind: { oneOf: ['oneTimeProduct', 'subscription'] },
  recurring: 'bool',
  productId: 'text',
  purchaseToken: 'text',
  purchaseTime: 'time',
  price: MONEY,
  access: { oneOf: ['granted', 'revoked'] },
  accessEndTime: 'time',
  payments: { oneOf: ['active', 'stopped', 'none'] },
  consumed: 'bool',
  refund: { fields: { time: 'time', revoke: 'bool' }, required: ['time', 'revoke'] },
};

/**
 * Checks one seeded order: known fields only, each of its type (text bounded by
 * {@link ORDER_TEXT_LIMIT}, enums, booleans, RFC 3339 times, `price` as Money, `refund` as
 * `{time, revoke}`). 400 `badRequest` naming the item (`seed.orders[2] (GPA.…)`) and the field.
 *
 * @example
 * ```ts
 * checkOrderSeed({ packageName: 'com.example', orderId: 'GPA.1' }, 0); // passes
 * ```
 */
export function checkOrderSeed(order: unknown, index: number): OrderSeed {
  if (typeof order !== 'object' || order === null || Array.isArray(order)) {
    throw errors.badRequest(
      `seed.orders[${index}]: each seeded order needs packageName and orderId`,
    );
  }
  const record = order as Record<string, unknown>;
  const id = typeof record.orderId === 'string' ? ` (${previewText(record.orderId)})` : '';
  const where = `seed.orders[${index}]${id}`;
  if (
    typeof record.packageName !== 'string' ||
    typeof record.orderId !== 'string' ||
    !record.orderId
  ) {
    throw errors.badRequest(`${where}: each seeded order needs packageName and orderId`);
  }
  checkFields(record, { fields: ORDER_FIELDS, required: [] }, '', where);
  return order as OrderSeed;
}

function checkFields(
  value: Record<string, unknown>,
  rule: Extract<FieldRule, { fields: unknown }>,
  path: string,
  where: string,
): void {
  for (const name of rule.required) {
    if (value[name] === undefined) throw errors.badRequest(`${where}: ${path}${name} is required`);
  }
  for (const [name, field] of Object.entries(value)) {
    const fieldRule = Object.hasOwn(rule.fields, name) ? rule.fields[name] : undefined;
    const at = `${path}${previewText(name)}`;
    if (!fieldRule) throw errors.badRequest(`${where}: unknown field ${at}`);
    if (field !== undefined) checkField(field, fieldRule, at, where);
  }
}

function checkField(value: unknown, rule: FieldRule, at: string, where: string): void {
  const wrong = (what: string) =>
    errors.badRequest(`${where}: ${at} must be ${what}, not ${previewValue(value)}`);
  if (typeof rule === 'object' && 'fields' in rule) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw wrong('an object');
    checkFields(value as Record<string, unknown>, rule, `${at}.`, where);
    return;
  }
  if (rule === 'bool') {
    if (typeof value !== 'boolean') throw wrong('true or false');
    return;
  }
  if (rule === 'nanos') {
    if (!Number.isInteger(value) || Math.abs(value as number) >= 1e9)
      throw wrong('an integer below 1e9');
    return;
  }
  if (typeof value !== 'string') throw wrong('a string');
  if (value.length > ORDER_TEXT_LIMIT) {
    throw errors.badRequest(
      `${where}: ${at} must be at most ${ORDER_TEXT_LIMIT} characters, not ${value.length}`,
    );
  }
  if (rule === 'time' && !isRfc3339(value)) throw wrong('an RFC 3339 time');
  if (typeof rule === 'object' && !rule.oneOf.includes(value))
    throw wrong(`one of ${rule.oneOf.join(', ')}`);
}
