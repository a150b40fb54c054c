// @listkit/query/typeorm: a planned page added to a TypeORM `SelectQueryBuilder`: its columns,
// the filter, the scope and the keyset condition as a WHERE with uniquely named parameters, the
// ordering and the limit. TypeORM is only a type here (an optional peer dependency): the entry
// loads nothing of it at run time, and `@listkit/query` itself never does.
export { typeormPage, typeormSql } from './typeorm/typeorm-page.js';
