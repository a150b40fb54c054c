// The public API of @listkit/service.
export type { AuthConfig, Principal, TokenGrant } from './auth/auth.js';
export { EmulatorClock } from './clock.js';
export type { AddressPoolKind } from './compute/address-pool.js';
export { ComputeUrls, DEFAULT_COMPUTE_BASE_URL } from './compute/compute-urls.js';
export type { ForwardingRuleJson } from './compute/forwarding-rule.js';
export type { ClashContext } from './compute/forwarding-rule-create/body-reader.js';
export {
  FORWARDING_RULE_ENUMS,
  forwardingRuleSchema,
} from './compute/forwarding-rule-schema.js';
export type { OperationPolicy } from './compute/operation-policy.js';
export { operationSchema } from './compute/operation-schema.js';
export type { OperationJson } from './compute/operations.js';
export { sampleForwardingRules } from './compute/sample-forwarding-rules.js';
export { CONTROL_PREFIX } from './control/control-routes.js';
export type { Seed } from './control/seed.js';
export { createEmulator, type Emulator, type EmulatorOptions } from './emulator.js';
export type { EmulatorControls } from './emulator-controls.js';
export type { EmulatorEnv } from './emulator-state.js';
export { ApiError, type ErrorItem } from './http/api-error.js';
export type { CompressionOptions } from './http/compression.js';
export type { FaultRule } from './http/faults.js';
export { REQUEST_LOG_LIMITS, type RequestRecord } from './http/request-log.js';
export type { Money, OrderKind, OrderSeed, OrderState } from './publisher/order.js';
export { REFUND_WINDOW_YEARS, refundDeadline } from './publisher/orders.js';
export { sampleOrders } from './publisher/sample-orders.js';
export * from './store/index.js';
