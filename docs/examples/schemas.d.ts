// The names docs/schemas.md's fragments use (see README.md here).
declare const path: string;
declare const records: readonly object[];
