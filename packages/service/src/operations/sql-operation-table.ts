import { type SqlTable, sqlTable } from '@listkit/query/sql';
import { operationSchema } from './operation-schema.js';

/** Regional operations, scoped by `parent`. */
export const operationsTable: SqlTable = sqlTable(operationSchema, {
  table: 'operations',
  required: ['creationTimestamp', 'status'],
});
