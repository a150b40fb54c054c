// The names docs/list-pipeline.md's fragments use (see README.md here).
type ForwardingRule = { name: string; IPProtocol?: string; labels?: Record<string, string> };
declare const forwardingRuleSchema: import('@listkit/query').ResourceSchema<ForwardingRule>;
declare const rule: ForwardingRule;
declare const rules: import('@listkit/query').Collection<ForwardingRule>;
declare const pageTokens: import('@listkit/query').PageTokenCodec;
declare const pageToken: string | undefined;
declare const maxResults: number | undefined;
declare const Collection: typeof import('@listkit/query').Collection;
