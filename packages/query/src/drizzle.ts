// @listkit/query/drizzle: a planned page as Drizzle `SQL` objects, so a Drizzle user adds the
// filter, the ordering and the keyset condition to their own `db.select(…).from(table)`, and a
// Drizzle table described once gives the list's schema and column map. Only this entry imports
// drizzle-orm (an optional peer dependency); `@listkit/query` itself never loads it.
export {
  type DrizzleListOptions,
  type DrizzleListTable,
  drizzleListTable,
} from './drizzle/drizzle-list-table.js';
export { type DrizzlePage, drizzlePage, drizzleSql } from './drizzle/drizzle-page.js';
