// The names docs/filter-language.md's fragments use (see README.md here).
declare const schema: import('@listkit/query').ResourceSchema;
declare const resource: object;
