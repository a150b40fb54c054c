// Stage 6: sourceIpRanges, metadataFilters, the backend bucket migration, and labels.

import { parseRange } from '../addresses/ip-addresses.js';
import { checkLabels } from '../labels.js';
import { MIGRATION_TRANSITIONS } from '../migration-state-machine.js';
import type { BodyReader } from './body-reader.js';
import type { NameAndEnums } from './check-name-region-enums.js';
import type { Destination } from './check-target-and-backend.js';
import { invalid } from './errors.js';
import { FORWARDING_RULE_LIMITS } from './patterns-and-limits.js';

/**
 * Checks sourceIpRanges (EXTERNAL only), metadataFilters (limits, then refused: regional rules
 * cannot take them), the migration's first step, and labels (validated, then ignored). Returns
 * the source ranges.
 */
export function checkRangesFiltersAndLabels(
  r: BodyReader,
  known: NameAndEnums,
  dest: Destination,
): string[] | undefined {
  const { list, input } = r;
  const { metadataFilters, migrationState } = known;
  const { kind, targetRef } = dest;
  // sourceIpRanges
  const sourceIpRanges = list<string>('sourceIpRanges');
  if (sourceIpRanges) {
    if (sourceIpRanges.length > FORWARDING_RULE_LIMITS.sourceIpRanges) {
      throw invalid(
        'sourceIpRanges',
        '',
        `At most ${FORWARDING_RULE_LIMITS.sourceIpRanges} source IP ranges may be given, not ${sourceIpRanges.length}.`,
      );
    }
    sourceIpRanges.forEach((range, i) => {
      if (!parseRange(range)) {
        throw invalid(
          `sourceIpRanges[${i}]`,
          range,
          'Must be an IP address or a CIDR range, such as 1.2.3.4 or 1.2.3.0/24.',
        );
      }
    });
    if (kind !== 'EXTERNAL' || r.ctx.region === undefined) {
      throw invalid(
        'sourceIpRanges',
        '',
        'sourceIpRanges can only be used with a regional forwarding rule whose load balancing scheme is EXTERNAL.',
      );
    }
  }

  // metadataFilters: checked, then refused unless the rule is INTERNAL_SELF_MANAGED (global)
  metadataFilters?.forEach((filter, i) => {
    const labels = (filter.filterLabels as Record<string, unknown>[] | undefined) ?? [];
    if (labels.length === 0 || labels.length > FORWARDING_RULE_LIMITS.filterLabels) {
      throw invalid(
        `metadataFilters[${i}].filterLabels`,
        '',
        `Must hold between 1 and ${FORWARDING_RULE_LIMITS.filterLabels} entries, not ${labels.length}.`,
      );
    }
    labels.forEach((label, j) => {
      const field = `metadataFilters[${i}].filterLabels[${j}]`;
      const labelName = typeof label.name === 'string' ? label.name : '';
      const value = typeof label.value === 'string' ? label.value : '';
      if (labelName.length < 1 || labelName.length > FORWARDING_RULE_LIMITS.filterLabelName) {
        throw invalid(
          `${field}.name`,
          labelName.length > 64 ? `${labelName.slice(0, 64)}…` : labelName,
          `Must be 1-${FORWARDING_RULE_LIMITS.filterLabelName} characters long, not ${labelName.length}.`,
        );
      }
      if (value.length > FORWARDING_RULE_LIMITS.filterLabelValue) {
        throw invalid(
          `${field}.value`,
          `${value.slice(0, 64)}…`,
          `Must be at most ${FORWARDING_RULE_LIMITS.filterLabelValue} characters long, not ${value.length}.`,
        );
      }
    });
  });
  if (metadataFilters && kind !== 'INTERNAL_SELF_MANAGED') {
    throw invalid(
      'metadataFilters',
      '',
      'Metadata filters apply only to forwarding rules with load balancing scheme INTERNAL_SELF_MANAGED, which only global forwarding rules have.',
    );
  }

  // the backend bucket migration: a new rule may only take the first step of the state table
  const percentageField = 'externalManagedBackendBucketMigrationTestingPercentage';
  const percentage = input[percentageField] as number | undefined;
  if (percentage !== undefined) {
    const { min, max } = FORWARDING_RULE_LIMITS.migrationPercentage;
    if (!(percentage >= min && percentage <= max)) {
      throw invalid(percentageField, percentage, `Must be within [${min}, ${max}].`);
    }
    if (migrationState !== 'TEST_BY_PERCENTAGE') {
      throw invalid(
        percentageField,
        percentage,
        `A percentage is allowed only with externalManagedBackendBucketMigrationState TEST_BY_PERCENTAGE, not ${migrationState ?? 'unset'}.`,
      );
    }
  }
  if (migrationState !== undefined) {
    if (kind !== 'EXTERNAL') {
      throw invalid(
        'externalManagedBackendBucketMigrationState',
        migrationState,
        `The migration begins from the EXTERNAL scheme; this rule is ${kind}.`,
      );
    }
    const firstSteps = MIGRATION_TRANSITIONS.filter((t) => t.from === 'unset').map((t) => t.to);
    if (!(firstSteps as string[]).includes(migrationState)) {
      throw invalid(
        'externalManagedBackendBucketMigrationState',
        migrationState,
        `A new forwarding rule can only begin the migration, in state ${firstSteps.join(' or ')}; later states are reached by patching the rule.`,
      );
    }
  }

  // labels: validated like every GCE label set, then ignored (they are set through setLabels)
  const labels = (input.labels as Record<string, string> | undefined) ?? {};
  checkLabels(labels, 'resource.labels');
  const labelEntries = Object.entries(labels);
  if (labelEntries.length > 0 && targetRef?.collection === 'serviceAttachments') {
    throw invalid(
      'labels',
      '',
      'Invalid field set in Private Service Connect Forwarding Rule. This field should not be set.',
    );
  }

  return sourceIpRanges;
}
