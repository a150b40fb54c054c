import { type Refusal, refuse } from '../core/refusal.js';
import { previewText, previewValue } from '../core/value-preview.js';
import type { ComputeUrls } from '../names/compute-urls.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { fieldsWhere } from './forwarding-rule-fields.js';
import {
  CLIENT_FIELDS,
  type DestinationStage,
  type InsertContext,
  normalizePortRange,
  OUTPUT_ONLY_FIELDS,
  parseForwardingRuleShape,
  prepareForwardingRule,
} from './forwarding-rule-validation.js';
import { checkLabels } from './labels.js';
import { applyMigration, type MigrationState } from './migration-state-machine.js';
import { answeredReference } from './references.js';

/** Fields a patch may change (JSON merge patch: `null` clears a field), from the field table. */
export const PATCHABLE_FIELDS: ReadonlySet<string> = fieldsWhere(
  (f) => f.onPatch === 'patchable' || f.onPatch === 'migration',
);

/** Client fields a patch may repeat but never change. */
export const IMMUTABLE_FIELDS = [...fieldsWhere((f) => f.onPatch === 'immutable')];

/** Client fields that reference another resource (answered expanded or echoed). */
const REFERENCE_FIELDS = fieldsWhere(
  (f) => f.setBy === 'client' && f.reference !== undefined && f.reference !== 'URL (server-set)',
);
/** Client booleans (proto3 JSON: false is the default, omitted from answers). */
const BOOLEAN_FIELDS = fieldsWhere((f) => f.setBy === 'client' && f.shape === 'bool');
/** Fields a patch leaves to another method (labels: setLabels). */
const IGNORED_ON_PATCH = fieldsWhere((f) => f.onPatch === 'ignored');

interface Where {
  project: string;
  urls: ComputeUrls;
}

const stale = (what: string) => refuse.conditionNotMet(what);

/**
 * Applies a PATCH body to a rule and returns the new rule (the caller stores it, recomputing the
 * fingerprints). A given `fingerprint` must be the current one (412 otherwise); immutable fields
 * may be repeated but not changed; migration changes follow the state machine.
 */
export function applyPatch(
  current: ForwardingRuleJson,
  body: unknown,
  where: Where,
): ForwardingRuleJson {
  const patch = asObject(body, 'ForwardingRule');
  // The body's shape (names, types, bounded text) and its labels are checked as on insert.
  const shaped = parseForwardingRuleShape(patch);
  checkLabels((shaped.labels as Record<string, string> | undefined) ?? {}, 'resource.labels');
  const fingerprint = patch.fingerprint;
  if (fingerprint !== undefined && fingerprint !== null && fingerprint !== current.fingerprint) {
    throw stale(
      `The fingerprint '${String(fingerprint)}' is not the current fingerprint of the forwarding rule '${current.name}'; it changed since it was read. Read the rule again and retry.`,
    );
  }
  const next: Record<string, unknown> = { ...current };
  for (const [field, raw] of Object.entries(patch)) {
    // Migration fields are applied together below. Labels change only through setLabels; the
    // Node client sends `"labels": {}` in every body, so, as on insert, they are ignored here.
    const handledElsewhere =
      field.startsWith('externalManagedBackendBucketMigration') || field === 'loadBalancingScheme';
    if (OUTPUT_ONLY_FIELDS.has(field) || handledElsewhere || IGNORED_ON_PATCH.has(field)) continue;
    const value = normalize(field, raw, where);
    const before = current[field];
    const same = JSON.stringify(value ?? null) === JSON.stringify(before ?? null);
    if (!PATCHABLE_FIELDS.has(field)) {
      if (!same) throw immutable(field, 'it is set when the rule is created and cannot change');
      continue;
    }
    if (field === 'noAutomateDnsZone' && before === true && !same) {
      throw immutable(field, 'once set it cannot change');
    }
    if (
      field === 'allowGlobalAccess' &&
      current.loadBalancingScheme === 'INTERNAL_MANAGED' &&
      !same
    ) {
      throw immutable(field, 'it cannot change on an INTERNAL_MANAGED rule');
    }
    if (value === undefined) delete next[field];
    else next[field] = value;
  }
  const migration = applyMigration(
    {
      loadBalancingScheme: current.loadBalancingScheme as string | undefined,
      state: current.externalManagedBackendBucketMigrationState as MigrationState | undefined,
      percentage: current.externalManagedBackendBucketMigrationTestingPercentage as
        | number
        | undefined,
    },
    {
      loadBalancingScheme: optionalString(patch, 'loadBalancingScheme'),
      state: optionalString(patch, 'externalManagedBackendBucketMigrationState') as
        | MigrationState
        | undefined,
      percentage: optionalNumber(patch, 'externalManagedBackendBucketMigrationTestingPercentage'),
    },
  );
  next.loadBalancingScheme = migration.loadBalancingScheme;
  setOrDelete(next, 'externalManagedBackendBucketMigrationState', migration.state);
  setOrDelete(next, 'externalManagedBackendBucketMigrationTestingPercentage', migration.percentage);
  return next as ForwardingRuleJson;
}

/**
 * Checks a patched rule against the create rules (target region and type, sourceIpRanges, the
 * clash rule, …), as if it were created now beside the other rules of its region. The migration
 * fields are left out: create allows only their first step, and patch has its own state machine.
 */
export function checkPatchedRule(
  rule: ForwardingRuleJson,
  ctx: InsertContext,
  destination?: DestinationStage,
): void {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(rule)) {
    const migration = field.startsWith('externalManagedBackendBucketMigration');
    if (CLIENT_FIELDS.has(field) && !IGNORED_ON_PATCH.has(field) && !migration) body[field] = value;
  }
  // The clash rule skips the stored version of this rule: it has the same name.
  prepareForwardingRule(body, ctx, destination);
}

/** The message a setLabels body is: regional rules' or global rules'. */
export type SetLabelsRequestName = 'RegionSetLabelsRequest' | 'GlobalSetLabelsRequest';

/**
 * Applies a setLabels body (`{labels, labelFingerprint}`): the fingerprint is required and must
 * be current (412 conditionNotMet otherwise); labels follow Compute Engine's label rules.
 */
export function applySetLabels(
  current: ForwardingRuleJson,
  body: unknown,
  request: SetLabelsRequestName = 'RegionSetLabelsRequest',
): ForwardingRuleJson {
  const fields = asObject(body, request);
  for (const key of Object.keys(fields)) {
    if (key !== 'labels' && key !== 'labelFingerprint') {
      const at =
        request === 'RegionSetLabelsRequest'
          ? 'region_set_labels_request'
          : 'global_set_labels_request';
      throw refuse.badRequest(
        `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`,
      );
    }
  }
  // The body's shape is read before the precondition, as the real API parses JSON first.
  const fingerprint = fields.labelFingerprint;
  if (fingerprint !== undefined && typeof fingerprint !== 'string') {
    throw refuse.invalid(
      `Invalid value at 'labelFingerprint' (TYPE_BYTES), ${previewValue(fingerprint)}`,
      'labelFingerprint',
    );
  }
  const labels = fields.labels ?? {};
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
    throw refuse.invalid("Invalid value for field 'labels'. Must be a map of strings.", 'labels');
  }
  const entries = Object.entries(labels as Record<string, unknown>);
  for (const [key, value] of entries) {
    if (typeof value !== 'string') {
      throw refuse.invalid(
        `Invalid value for field 'labels.${previewText(key)}': '${previewValue(value)}'. Label values are strings.`,
        `labels.${previewText(key)}`,
      );
    }
  }
  if (fingerprint === undefined || fingerprint === '') {
    throw stale(
      `Labels fingerprint is required: send the labelFingerprint read from the forwarding rule '${current.name}'.`,
    );
  }
  if (fingerprint !== current.labelFingerprint) {
    throw stale(
      `Labels fingerprint either invalid or resource labels have changed: '${previewText(fingerprint)}' is not the current labelFingerprint of '${current.name}'.`,
    );
  }
  checkLabels(labels as Record<string, string>, 'labels');
  const next: Record<string, unknown> = { ...current };
  if (entries.length === 0) delete next.labels;
  else next.labels = Object.fromEntries(entries);
  return next as ForwardingRuleJson;
}

/**
 * Applies a setTarget body (a `TargetReference`, `{target}`): the rule with its target replaced,
 * normalised as insert answers it. The caller re-checks the result against the create rules
 * ({@link checkPatchedRule}): the target's region, its type against the scheme, and so on.
 */
export function applySetTarget(
  current: ForwardingRuleJson,
  body: unknown,
  where: Where,
): ForwardingRuleJson {
  const request = asObject(body, 'TargetReference');
  for (const key of Object.keys(request)) {
    if (key !== 'target') {
      throw refuse.badRequest(
        `Invalid JSON payload received. Unknown name "${previewText(key)}" at 'target_reference_resource': Cannot find field.`,
      );
    }
  }
  const target = request.target;
  if (target === undefined || target === null || target === '') {
    throw refuse.required("Required field 'target' not specified", 'target');
  }
  // The type and length rules of the rule's own `target` field.
  parseForwardingRuleShape({ target });
  return { ...current, target: normalize('target', target, where) };
}

function normalize(field: string, value: unknown, where: Where): unknown {
  if (value === null || value === undefined) return undefined;
  if (REFERENCE_FIELDS.has(field)) {
    if (typeof value !== 'string') throw invalidType(field, value, 'a string');
    if (value === '') return undefined;
    return answeredReference(field, value, where.project, where.urls);
  }
  if (BOOLEAN_FIELDS.has(field)) {
    if (typeof value !== 'boolean') throw invalidType(field, value, 'a boolean');
    return value ? true : undefined; // proto3 JSON: false is the default, omitted
  }
  if (field === 'portRange') {
    if (typeof value !== 'string') throw invalidType(field, value, 'a string');
    return normalizePortRange(field, value);
  }
  if (field === 'networkTier' && value !== 'PREMIUM' && value !== 'STANDARD') {
    throw refuse.invalid(
      `Invalid value for field 'resource.networkTier': '${String(value)}'. Must be one of [PREMIUM, STANDARD].`,
      'resource.networkTier',
    );
  }
  if (field === 'sourceIpRanges') {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
      throw invalidType(field, value, 'a list of strings');
    if (value.length > 64) {
      throw refuse.invalid(
        `Invalid value for field 'resource.sourceIpRanges'. At most 64 entries, not ${value.length}.`,
        'resource.sourceIpRanges',
      );
    }
    return value.length === 0 ? undefined : value;
  }
  if (field === 'description' && typeof value !== 'string')
    throw invalidType(field, value, 'a string');
  return value;
}

function immutable(field: string, why: string): Refusal {
  return refuse.invalid(
    `Invalid value for field 'resource.${field}': the field cannot be patched: ${why}.`,
    `resource.${field}`,
  );
}

function invalidType(field: string, value: unknown, what: string): Refusal {
  return refuse.invalid(
    `Invalid value for field 'resource.${field}': '${previewValue(value)}'. Must be ${what}.`,
    `resource.${field}`,
  );
}

function asObject(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refuse.badRequest(
      `Invalid JSON payload received. The request body must be a ${what} object.`,
    );
  }
  return body as Record<string, unknown>;
}

function optionalString(patch: Record<string, unknown>, field: string): string | undefined {
  const value = patch[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidType(field, value, 'a string');
  return value;
}

function optionalNumber(patch: Record<string, unknown>, field: string): number | undefined {
  const value = patch[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw invalidType(field, value, 'a number');
  return value;
}

function setOrDelete(target: Record<string, unknown>, field: string, value: unknown): void {
  if (value === undefined) delete target[field];
  else target[field] = value;
}
