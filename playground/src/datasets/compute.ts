// Compute Engine's forwarding rules: the emulator's schema and generator. The only dataset the
// emulator can list too, and the only one gcloud knows.

import { generatedRules } from '../data.js';
import { EXAMPLES } from '../examples.js';
import { playgroundSchema } from '../schema.js';
import type { Dataset } from './dataset.js';

export const compute: Dataset = {
  id: 'compute',
  title: 'Forwarding rules (Compute)',
  singular: 'forwarding rule',
  plural: 'forwarding rules',
  schema: playgroundSchema,
  generate: generatedRules,
  defaultSample: 300,
  firstFilter: 'labels.env = prod AND creationTimestamp >= 2025-01-01T00:00:00Z AND NOT name:web-*',
  columns: ['loadBalancingScheme', 'IPProtocol', 'labels'],
  examples: EXAMPLES,
  listCall: {
    origin: 'https://compute.googleapis.com',
    path: '/compute/v1/projects/my-project/regions/us-central1/forwardingRules',
    pageSizeParam: 'maxResults',
  },
  compute: true,
};
