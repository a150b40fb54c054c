// The public API of @listkit/service.
export type { AuthConfig, Principal, TokenGrant } from './auth/auth.js';
export { CONTROL_PREFIX } from './control/control-routes.js';
export type { Seed } from './control/seed.js';
export type { SnapshotFile } from './control/snapshot-file.js';
export { DEFAULT_SNAPSHOT_LIMITS, type EmulatorSnapshots } from './control/snapshots.js';
export { EmulatorClock } from './core/clock.js';
export { createEmulator, type Emulator, type EmulatorOptions } from './emulator.js';
export type { EmulatorControls } from './emulator-controls.js';
export type { EmulatorEnv } from './emulator-state.js';
export type { AddressPoolKind } from './forwarding-rules/addresses/address-pool.js';
export type { ClashContext } from './forwarding-rules/create/body-reader.js';
export type { ForwardingRuleJson } from './forwarding-rules/forwarding-rule.js';
export {
  FORWARDING_RULE_ENUMS,
  forwardingRuleSchema,
} from './forwarding-rules/forwarding-rule-schema.js';
export { sampleForwardingRules } from './forwarding-rules/sample-forwarding-rules.js';
export { ApiError, type ErrorItem } from './http/api-error.js';
export type { CompressionOptions } from './http/compression.js';
export type { FaultRule } from './http/faults.js';
export { REQUEST_LOG_LIMITS, type RequestRecord } from './http/request-log.js';
export { ComputeUrls, DEFAULT_COMPUTE_BASE_URL } from './names/compute-urls.js';
export type { OperationPolicy } from './operations/operation-policy.js';
export { operationSchema } from './operations/operation-schema.js';
export type { OperationJson } from './operations/operations.js';
export type { Money, OrderKind, OrderSeed, OrderState } from './orders/order.js';
export { REFUND_WINDOW_YEARS, refundDeadline } from './orders/orders.js';
export { sampleOrders } from './orders/sample-orders.js';
export * from './store/index.js';
