// What `buf generate` writes for docs/list-method.md's Connect server: the library service of
// test/list-method/, whose .proto is in test/support/library-proto.ts.
export {
  BadRequestSchema,
  BookSchema,
  ErrorInfoSchema,
  LibraryService,
} from '../../test/support/library-proto.js';
