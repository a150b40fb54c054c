// The names docs/partial-responses.md's fragments use (see README.md here): a schema, a page of
// it, one resource, and an Express-style response.
type Rule = { name: string; labels?: Record<string, string> };
declare const schema: import('@listkit/query').ResourceSchema<Rule>;
declare const page: { items: Rule[]; nextPageToken?: string };
declare const resource: Rule;
declare const res: { json(body: unknown): void };
