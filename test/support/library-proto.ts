// The library service of the Connect test: its .proto text (the source of the listkit schema,
// through schemaFromProto) and the same file as protobuf-es descriptors, written by hand as
// protoc-gen-es would generate them (google.rpc's BadRequest and ErrorInfo likewise), so the
// Connect server and client need no code generation. The test checks both give the same schema.
import {
  create,
  createFileRegistry,
  type DescMessage,
  type Message,
  type MessageInitShape,
} from '@bufbuild/protobuf';
import type { GenMessage, GenService } from '@bufbuild/protobuf/codegenv2';
import {
  type DescriptorProtoSchema,
  type FieldDescriptorProto,
  type FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
  file_google_protobuf_timestamp,
  FieldDescriptorProto_Label as Label,
  type Timestamp,
  FieldDescriptorProto_Type as Type,
} from '@bufbuild/protobuf/wkt';

export const LIBRARY_PROTO = `
syntax = "proto3";
package library.v1;

import "google/protobuf/timestamp.proto";

message Book {
  string name = 1;
  string title = 2;
  string author = 3;
  int32 year = 4;
  Genre genre = 5;
  google.protobuf.Timestamp create_time = 6;
}

enum Genre {
  GENRE_UNSPECIFIED = 0;
  FANTASY = 1;
  MYSTERY = 2;
  SCIENCE_FICTION = 3;
  HISTORY = 4;
}

message ListBooksRequest {
  string parent = 1;
  int32 page_size = 2;
  string page_token = 3;
  string filter = 4;
  string order_by = 5;
}

message ListBooksResponse {
  repeated Book books = 1;
  string next_page_token = 2;
}

service LibraryService {
  rpc ListBooks(ListBooksRequest) returns (ListBooksResponse);
}
`;

type FieldInit = MessageInitShape<typeof FieldDescriptorProtoSchema>;
type MessageInit = MessageInitShape<typeof DescriptorProtoSchema>;

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function field(
  name: string,
  number: number,
  type: Type,
  more: Partial<Pick<FieldDescriptorProto, 'typeName' | 'label'>> = {},
): FieldInit {
  return { name, number, type, label: Label.OPTIONAL, jsonName: camel(name), ...more };
}

const message = (
  name: string,
  fields: FieldInit[],
  more: Pick<MessageInit & object, 'nestedType' | 'options'> = {},
): MessageInit => ({ name, field: fields, ...more });

const libraryFile = create(FileDescriptorProtoSchema, {
  name: 'library/v1/library.proto',
  package: 'library.v1',
  syntax: 'proto3',
  dependency: ['google/protobuf/timestamp.proto'],
  messageType: [
    message('Book', [
      field('name', 1, Type.STRING),
      field('title', 2, Type.STRING),
      field('author', 3, Type.STRING),
      field('year', 4, Type.INT32),
      field('genre', 5, Type.ENUM, { typeName: '.library.v1.Genre' }),
      field('create_time', 6, Type.MESSAGE, { typeName: '.google.protobuf.Timestamp' }),
    ]),
    message('ListBooksRequest', [
      field('parent', 1, Type.STRING),
      field('page_size', 2, Type.INT32),
      field('page_token', 3, Type.STRING),
      field('filter', 4, Type.STRING),
      field('order_by', 5, Type.STRING),
    ]),
    message('ListBooksResponse', [
      field('books', 1, Type.MESSAGE, { typeName: '.library.v1.Book', label: Label.REPEATED }),
      field('next_page_token', 2, Type.STRING),
    ]),
  ],
  enumType: [
    {
      name: 'Genre',
      value: ['GENRE_UNSPECIFIED', 'FANTASY', 'MYSTERY', 'SCIENCE_FICTION', 'HISTORY'].map(
        (name, number) => ({ name, number }),
      ),
    },
  ],
  service: [
    {
      name: 'LibraryService',
      method: [
        {
          name: 'ListBooks',
          inputType: '.library.v1.ListBooksRequest',
          outputType: '.library.v1.ListBooksResponse',
        },
      ],
    },
  ],
});

/** google/rpc/error_details.proto: the two details a list error carries. */
const errorDetailsFile = create(FileDescriptorProtoSchema, {
  name: 'google/rpc/error_details.proto',
  package: 'google.rpc',
  syntax: 'proto3',
  messageType: [
    message(
      'BadRequest',
      [
        field('field_violations', 1, Type.MESSAGE, {
          typeName: '.google.rpc.BadRequest.FieldViolation',
          label: Label.REPEATED,
        }),
      ],
      {
        nestedType: [
          message('FieldViolation', [
            field('field', 1, Type.STRING),
            field('description', 2, Type.STRING),
            field('reason', 3, Type.STRING),
          ]),
        ],
      },
    ),
    message(
      'ErrorInfo',
      [
        field('reason', 1, Type.STRING),
        field('domain', 2, Type.STRING),
        field('metadata', 3, Type.MESSAGE, {
          typeName: '.google.rpc.ErrorInfo.MetadataEntry',
          label: Label.REPEATED,
        }),
      ],
      {
        nestedType: [
          message('MetadataEntry', [field('key', 1, Type.STRING), field('value', 2, Type.STRING)], {
            options: { mapEntry: true },
          }),
        ],
      },
    ),
  ],
});

const registry = createFileRegistry(
  createFileRegistry(libraryFile, (name) =>
    name === 'google/protobuf/timestamp.proto' ? file_google_protobuf_timestamp : undefined,
  ),
  createFileRegistry(errorDetailsFile, () => undefined),
);

const messageNamed = (name: string): DescMessage => {
  const found = registry.getMessage(name);
  if (!found) throw new Error(`no message ${name}`);
  return found;
};

// The message types, as protoc-gen-es would declare them.
export type BookMessage = Message<'library.v1.Book'> & {
  name: string;
  title: string;
  author: string;
  year: number;
  genre: number;
  createTime?: Timestamp;
};
export type ListBooksRequest = Message<'library.v1.ListBooksRequest'> & {
  parent: string;
  pageSize: number;
  pageToken: string;
  filter: string;
  orderBy: string;
};
export type ListBooksResponse = Message<'library.v1.ListBooksResponse'> & {
  books: BookMessage[];
  nextPageToken: string;
};
export type FieldViolation = Message<'google.rpc.BadRequest.FieldViolation'> & {
  field: string;
  description: string;
  reason: string;
};
export type BadRequest = Message<'google.rpc.BadRequest'> & { fieldViolations: FieldViolation[] };
export type ErrorInfo = Message<'google.rpc.ErrorInfo'> & {
  reason: string;
  domain: string;
  metadata: { [key: string]: string };
};

export const BookSchema = messageNamed('library.v1.Book') as GenMessage<BookMessage>;
export const ListBooksRequestSchema = messageNamed(
  'library.v1.ListBooksRequest',
) as GenMessage<ListBooksRequest>;
export const ListBooksResponseSchema = messageNamed(
  'library.v1.ListBooksResponse',
) as GenMessage<ListBooksResponse>;
export const BadRequestSchema = messageNamed('google.rpc.BadRequest') as GenMessage<BadRequest>;
export const ErrorInfoSchema = messageNamed('google.rpc.ErrorInfo') as GenMessage<ErrorInfo>;
export const LibraryService = registry.getService('library.v1.LibraryService') as GenService<{
  listBooks: {
    methodKind: 'unary';
    input: typeof ListBooksRequestSchema;
    output: typeof ListBooksResponseSchema;
  };
}>;
