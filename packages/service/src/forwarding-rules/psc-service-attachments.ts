// What Compute adds to a regional Private Service Connect endpoint: a rule whose target is a
// service attachment (`projects/p/regions/r/serviceAttachments/s`), as a real GET of one shows
// (Cloud SQL's guide to PSC endpoints prints one): a connection id, the connection's status, a
// Service Directory registration in the network's namespace, and no empty description. Its
// operations keep the types `insert` and `delete` (Config Connector's recording of such a rule).
import { newNumericId } from '../core/ids.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import type { ScopeWrites } from './forwarding-rules.js';
import { parseReference } from './references.js';

/** Whether a rule's target is a service attachment (a regional PSC endpoint's). */
const targetsServiceAttachment = (rule: ForwardingRuleJson): boolean =>
  typeof rule.target === 'string' &&
  parseReference(rule.target).collection === 'serviceAttachments';

/**
 * The regional scope's additions to a new rule: a PSC endpoint gets `pscConnectionId` (a
 * decimal string), `pscConnectionStatus: ACCEPTED` (the emulator holds no service attachments,
 * so every producer accepts, as one whose connection preference is ACCEPT_AUTOMATIC does),
 * `serviceDirectoryRegistrations` (the namespace `goog-psc-<network name>` unless the rule gave
 * one, as the recorded `goog-psc-default` on the network `default`), and no `description` when
 * none or `""` was given. Every other regional rule is left as it is; operation types stay.
 *
 * @example
 * ```ts
 * new ForwardingRules({ store, operations, clock, urls, scopeWrites: pscServiceAttachmentWrites });
 * ```
 */
export const pscServiceAttachmentWrites: ScopeWrites = {
  created(rule) {
    if (!targetsServiceAttachment(rule)) return rule;
    const { description, ...rest } = rule;
    const given = (rule.serviceDirectoryRegistrations as Record<string, string>[] | undefined)?.[0];
    const network = String(rule.network ?? 'default')
      .split('/')
      .pop();
    return {
      ...rest,
      ...(description === '' || description === undefined ? {} : { description }),
      serviceDirectoryRegistrations: [
        { ...given, namespace: given?.namespace ?? `goog-psc-${network}` },
      ],
      pscConnectionId: newNumericId(),
      pscConnectionStatus: 'ACCEPTED',
    };
  },
  operationType: (_rule, operationType) => operationType,
};
