// @listkit/query/kysely: a planned page as Kysely `sql` fragments. Only this entry loads kysely
// (an optional peer dependency); `@listkit/query` itself never does.
export { type KyselyPage, kyselyPage, kyselySql } from './kysely/kysely-page.js';
