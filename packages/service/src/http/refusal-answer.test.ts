import { describe, expect, it } from 'vitest';
import { Refusal, type RefusalCode } from '../core/refusal.js';
import { refusalToApiError } from './refusal-answer.js';

// Every refusal code has one answer per API: what the three error classes answered before.
describe('refusalToApiError', () => {
  const cases: [RefusalCode, string | undefined, number, string, object, object][] = [
    // code, field, status, reason, extra (compute), extra (publisher)
    [
      'invalid_value',
      'resource.name',
      400,
      'invalid',
      { location: 'resource.name' },
      { location: 'resource.name', status: 'INVALID_ARGUMENT' },
    ],
    [
      'required',
      'resource',
      400,
      'required',
      { location: 'resource' },
      { location: 'resource', status: 'INVALID_ARGUMENT' },
    ],
    ['invalid_argument', undefined, 400, 'badRequest', {}, { status: 'INVALID_ARGUMENT' }],
    ['not_found', undefined, 404, 'notFound', {}, { status: 'NOT_FOUND' }],
    ['already_exists', undefined, 409, 'alreadyExists', {}, { status: 'ALREADY_EXISTS' }],
    [
      'condition_failed',
      undefined,
      412,
      'conditionNotMet',
      { location: 'If-Match', locationType: 'header' },
      { location: 'If-Match', locationType: 'header', status: 'FAILED_PRECONDITION' },
    ],
    [
      'failed_precondition',
      undefined,
      400,
      'failedPrecondition',
      { status: 'FAILED_PRECONDITION' },
      { status: 'FAILED_PRECONDITION' },
    ],
    [
      'already_refunded',
      undefined,
      400,
      'failedPrecondition',
      { status: 'FAILED_PRECONDITION' },
      { status: 'FAILED_PRECONDITION' },
    ],
    ['quota_exceeded', undefined, 403, 'quotaExceeded', {}, { status: 'RESOURCE_EXHAUSTED' }],
    ['locked', undefined, 503, 'backendError', {}, { status: 'UNAVAILABLE' }],
    ['schema_too_new', undefined, 503, 'backendError', {}, { status: 'UNAVAILABLE' }],
  ];

  it.each(cases)(
    '%s answers its status, reason and location',
    (code, field, status, reason, compute, publisher) => {
      const refusal = new Refusal(code, 'what went wrong', field);
      const asCompute = refusalToApiError(refusal, 'compute');
      expect([asCompute.status, asCompute.reason, asCompute.message]).toEqual([
        status,
        reason,
        'what went wrong',
      ]);
      expect(asCompute.extra).toEqual(compute);
      expect(refusalToApiError(refusal, 'publisher').extra).toEqual(publisher);
    },
  );

  it("writes Compute Engine's envelope: no canonical status, the field as the item's location", () => {
    const body = refusalToApiError(
      new Refusal('invalid_value', "Invalid value for field 'resource.name': ''.", 'resource.name'),
      'compute',
    ).body();
    expect(body).toEqual({
      error: {
        code: 400,
        message: "Invalid value for field 'resource.name': ''.",
        errors: [
          {
            domain: 'global',
            reason: 'invalid',
            message: "Invalid value for field 'resource.name': ''.",
            location: 'resource.name',
          },
        ],
      },
    });
  });
});
