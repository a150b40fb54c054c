// The examples menu: both filter styles and every operator, each with its own link
// (`#example=<id>`), plus a few broken filters that show what the errors look like.

export interface Example {
  id: string;
  group: 'AIP-160' | 'Regex style' | 'Errors' | 'Books' | 'Issues';
  /** The dataset it runs on (datasets/index.ts); Compute's forwarding rules when absent. */
  dataset?: string;
  title: string;
  filter: string;
  orderBy?: string;
  /** The operators and features it shows. */
  shows: string;
}

/** The examples over Compute's forwarding rules (datasets/ adds the others'). */
export const EXAMPLES: readonly Example[] = [
  {
    id: 'enum',
    group: 'AIP-160',
    title: 'Equals an enum value',
    filter: 'loadBalancingScheme = EXTERNAL',
    shows: '=',
  },
  {
    id: 'wildcard',
    group: 'AIP-160',
    title: 'Wildcard',
    filter: 'name = web-*',
    shows: '= with *',
  },
  {
    id: 'not-equals',
    group: 'AIP-160',
    title: 'Not equal',
    filter: 'IPProtocol != TCP',
    shows: '!=',
  },
  {
    id: 'map-entry',
    group: 'AIP-160',
    title: 'A map entry',
    filter: 'labels.env = prod',
    shows: 'a.b traversal',
  },
  {
    id: 'has-key',
    group: 'AIP-160',
    title: 'A map has a key',
    filter: 'labels:team',
    shows: ': on a map',
  },
  { id: 'present', group: 'AIP-160', title: 'A field is set', filter: 'portRange:*', shows: ':*' },
  {
    id: 'contains',
    group: 'AIP-160',
    title: 'Contains text',
    filter: 'description:frontend',
    shows: ': on a string',
  },
  {
    id: 'list',
    group: 'AIP-160',
    title: 'A list contains',
    filter: 'ports:443',
    shows: ': on a list',
  },
  {
    id: 'before',
    group: 'AIP-160',
    title: 'Before a time',
    filter: 'creationTimestamp < 2024-06-01T00:00:00Z',
    orderBy: 'creationTimestamp desc',
    shows: '< on a timestamp',
  },
  {
    id: 'since',
    group: 'AIP-160',
    title: 'At or after a time',
    filter: 'creationTimestamp >= "2025-06-01T00:00:00-07:00"',
    shows: '>= on a timestamp',
  },
  {
    id: 'int-range',
    group: 'AIP-160',
    title: 'An int64 range',
    filter: 'id > 1000000000000100000 AND id <= 1000000000000500000',
    shows: '> <= AND',
  },
  {
    id: 'after-name',
    group: 'AIP-160',
    title: 'Sorts after',
    filter: 'name > search',
    orderBy: 'name',
    shows: '> on a string',
  },
  {
    id: 'precedence',
    group: 'AIP-160',
    title: 'OR binds tighter than AND',
    filter: 'labels.env = prod AND IPProtocol = UDP OR allPorts = true',
    shows: 'AND OR',
  },
  {
    id: 'grouping',
    group: 'AIP-160',
    title: 'Grouping, side by side',
    filter: '(labels.env = prod OR labels.env = staging) networkTier = STANDARD',
    shows: '( ) and implicit AND',
  },
  {
    id: 'not',
    group: 'AIP-160',
    title: 'NOT',
    filter: 'NOT labels:team AND allowGlobalAccess = true',
    shows: 'NOT, bool',
  },
  {
    id: 'minus',
    group: 'AIP-160',
    title: 'Minus negates',
    filter: '-labels.env = dev region:us-east1',
    shows: '-',
  },
  {
    id: 'search',
    group: 'AIP-160',
    title: 'Search text',
    filter: 'api prod',
    shows: 'bare values',
  },
  {
    id: 'regex',
    group: 'Regex style',
    title: 'A name pattern',
    filter: 'name eq "web-.*"',
    orderBy: 'name',
    shows: 'eq',
  },
  {
    id: 'regex-terms',
    group: 'Regex style',
    title: 'Several terms',
    filter: '(name eq "(api|web)-prod-.*")(IPProtocol ne "TCP")',
    shows: '( )( ) and ne',
  },
  {
    id: 'regex-map',
    group: 'Regex style',
    title: 'A label',
    filter: 'labels.env eq "prod|staging"',
    shows: 'eq on a map entry',
  },
  {
    id: 'regex-unquoted',
    group: 'Regex style',
    title: 'Unquoted pattern',
    filter: 'IPAddress eq 10\\.0\\.0\\.\\d+',
    shows: 'unquoted RE2',
  },
  {
    id: 'error-string',
    group: 'Errors',
    title: 'Unterminated string',
    filter: 'name = "web',
    shows: 'unterminated_string',
  },
  {
    id: 'error-field',
    group: 'Errors',
    title: 'Misspelt field',
    filter: 'nmae = web-*',
    shows: 'unknown_field',
  },
  {
    id: 'error-enum',
    group: 'Errors',
    title: 'Misspelt enum value',
    filter: 'loadBalancingScheme = EXTERNL',
    shows: 'unknown_enum_value',
  },
  {
    id: 'error-mixed',
    group: 'Errors',
    title: 'Mixed styles',
    filter: 'labels.env = prod name eq web-.*',
    shows: 'mixed_filter_styles',
  },
  {
    id: 'error-regex',
    group: 'Errors',
    title: 'Lookahead is not RE2',
    filter: 'name eq "web(?=-prod)"',
    shows: 'invalid_regex',
  },
  {
    id: 'error-operator',
    group: 'Errors',
    title: 'No order on a bool',
    filter: 'allPorts > false',
    shows: 'unsupported_operator',
  },
];
