import { refuse } from '../core/refusal.js';

/** The canary states of `externalManagedBackendBucketMigrationState`. */
export type MigrationState = 'PREPARE' | 'TEST_BY_PERCENTAGE' | 'TEST_ALL_TRAFFIC';

/** One allowed change of the migration state, as the spec's state table lists it. */
export interface MigrationTransition {
  from: MigrationState | 'unset';
  to: MigrationState;
  rollback: boolean;
  note: string;
}

/**
 * Every allowed state change (spec §3), as data: patches consult it, tests iterate it, and
 * docs/coverage.md shows it. A change not listed here is refused.
 */
export const MIGRATION_TRANSITIONS: readonly MigrationTransition[] = [
  {
    from: 'unset',
    to: 'PREPARE',
    rollback: false,
    note: 'the required first step: begins the move from EXTERNAL to EXTERNAL_MANAGED',
  },
  {
    from: 'PREPARE',
    to: 'TEST_BY_PERCENTAGE',
    rollback: false,
    note: 'optional; the percentage field gives the share of traffic',
  },
  {
    from: 'PREPARE',
    to: 'TEST_ALL_TRAFFIC',
    rollback: false,
    note: 'must be reached before the scheme may become EXTERNAL_MANAGED',
  },
  {
    from: 'TEST_BY_PERCENTAGE',
    to: 'TEST_ALL_TRAFFIC',
    rollback: false,
    note: 'must be reached before the scheme may become EXTERNAL_MANAGED',
  },
  {
    from: 'TEST_ALL_TRAFFIC',
    to: 'TEST_BY_PERCENTAGE',
    rollback: true,
    note: 'migrates some traffic back to EXTERNAL',
  },
  {
    from: 'TEST_BY_PERCENTAGE',
    to: 'PREPARE',
    rollback: true,
    note: 'migrates all traffic back to EXTERNAL',
  },
  {
    from: 'TEST_ALL_TRAFFIC',
    to: 'PREPARE',
    rollback: true,
    note: 'migrates all traffic back to EXTERNAL',
  },
];

/** The rules on loadBalancingScheme that depend on the migration state (spec §3). */
export const SCHEME_RULES = [
  'EXTERNAL → EXTERNAL_MANAGED only while the state is TEST_ALL_TRAFFIC (and stays so in the request)',
  'EXTERNAL_MANAGED → EXTERNAL (rollback) only with externalManagedBackendBucketMigrationState: TEST_ALL_TRAFFIC in the same request',
  'externalManagedBackendBucketMigrationTestingPercentage (0..100) is required with TEST_BY_PERCENTAGE, allowed only with it and the EXTERNAL scheme',
] as const;

const FIELD = 'externalManagedBackendBucketMigrationState';
const PERCENT = 'externalManagedBackendBucketMigrationTestingPercentage';

/** The migration fields of a rule. */
export interface MigrationFields {
  loadBalancingScheme?: string;
  state?: MigrationState;
  percentage?: number;
}

/**
 * Applies the migration part of a patch: `current` is the rule now, `requested` the values the
 * patch sets (undefined: unchanged). Returns the resulting fields, or throws 400 naming the
 * current and the requested state.
 */
export function applyMigration(
  current: MigrationFields,
  requested: MigrationFields,
): MigrationFields {
  const from = current.state;
  const to = requested.state ?? from;
  if (to !== from) {
    const allowed = MIGRATION_TRANSITIONS.some((t) => t.from === (from ?? 'unset') && t.to === to);
    if (!allowed || to === undefined) {
      throw refuse.invalid(
        `Invalid value for field 'resource.${FIELD}': '${to ?? ''}'. The migration state cannot change from ${from ?? 'unset'} to ${to ?? 'unset'}; allowed from ${from ?? 'unset'}: ${allowedFrom(from) || 'none'}.`,
        `resource.${FIELD}`,
      );
    }
  }
  const scheme = requested.loadBalancingScheme ?? current.loadBalancingScheme;
  if (from === undefined && to === 'PREPARE' && current.loadBalancingScheme !== 'EXTERNAL') {
    throw refuse.invalid(
      `Invalid value for field 'resource.${FIELD}': 'PREPARE'. The migration begins from the EXTERNAL scheme; this rule is ${current.loadBalancingScheme}.`,
      `resource.${FIELD}`,
    );
  }
  if (scheme !== current.loadBalancingScheme) {
    const forward = current.loadBalancingScheme === 'EXTERNAL' && scheme === 'EXTERNAL_MANAGED';
    const back = current.loadBalancingScheme === 'EXTERNAL_MANAGED' && scheme === 'EXTERNAL';
    if (forward && !(from === 'TEST_ALL_TRAFFIC' && to === 'TEST_ALL_TRAFFIC')) {
      throw refuse.invalid(
        `Invalid value for field 'resource.loadBalancingScheme': '${scheme}'. The scheme may become EXTERNAL_MANAGED only in migration state TEST_ALL_TRAFFIC; the state is ${from ?? 'unset'}${to !== from ? ` and the request asks for ${to}` : ''}.`,
        'resource.loadBalancingScheme',
      );
    }
    if (back && requested.state !== 'TEST_ALL_TRAFFIC') {
      throw refuse.invalid(
        `Invalid value for field 'resource.loadBalancingScheme': '${scheme}'. Rolling back from EXTERNAL_MANAGED to EXTERNAL needs ${FIELD}: TEST_ALL_TRAFFIC in the same request; the state is ${from ?? 'unset'} and the request asks for ${requested.state ?? 'no change'}.`,
        'resource.loadBalancingScheme',
      );
    }
    if (!forward && !back) {
      throw refuse.invalid(
        `Invalid value for field 'resource.loadBalancingScheme': '${scheme}'. The scheme of a rule cannot change from ${current.loadBalancingScheme} to ${scheme}; only the EXTERNAL ↔ EXTERNAL_MANAGED migration changes it.`,
        'resource.loadBalancingScheme',
      );
    }
  }
  let percentage = requested.percentage ?? (to === from ? current.percentage : undefined);
  if (to === 'TEST_BY_PERCENTAGE') {
    if (percentage === undefined) {
      throw refuse.invalid(
        `Invalid value for field 'resource.${PERCENT}': ''. The migration state TEST_BY_PERCENTAGE needs a percentage (0..100).`,
        `resource.${PERCENT}`,
      );
    }
    if (scheme !== 'EXTERNAL') {
      throw refuse.invalid(
        `Invalid value for field 'resource.${PERCENT}': '${percentage}'. The percentage applies only to the classic EXTERNAL scheme, not ${scheme}.`,
        `resource.${PERCENT}`,
      );
    }
  } else if (requested.percentage !== undefined) {
    throw refuse.invalid(
      `Invalid value for field 'resource.${PERCENT}': '${requested.percentage}'. A percentage is allowed only with the migration state TEST_BY_PERCENTAGE, not ${to ?? 'unset'}.`,
      `resource.${PERCENT}`,
    );
  } else {
    percentage = undefined;
  }
  if (percentage !== undefined && !(percentage >= 0 && percentage <= 100)) {
    throw refuse.invalid(
      `Invalid value for field 'resource.${PERCENT}': '${percentage}'. Must be within [0, 100].`,
      `resource.${PERCENT}`,
    );
  }
  return { loadBalancingScheme: scheme, state: to, percentage };
}

function allowedFrom(state: MigrationState | undefined): string {
  return MIGRATION_TRANSITIONS.filter((t) => t.from === (state ?? 'unset'))
    .map((t) => t.to)
    .join(', ');
}
