// schemaFromProto on real protos: Compute's ForwardingRule from @google-cloud/compute's own
// compute.proto (answers must equal the emulator's hand-written schema's), an AIP-style resource
// with Timestamps, and protobuf-es descriptors.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FieldDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { compileFilter, type SchemaWarning } from '@listkit/query';
import { schemaFromProto } from '@listkit/query/proto';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const computeProto = join(
  dirname(require.resolve('@google-cloud/compute/package.json')),
  'build/protos/google/cloud/compute/v1/compute.proto',
);

describe("Compute's ForwardingRule from compute.proto", () => {
  const schema = schemaFromProto(
    { 'google/cloud/compute/v1/compute.proto': readFileSync(computeProto, 'utf8') },
    {
      message: 'google.cloud.compute.v1.ForwardingRule',
      // Compute declares it a string, and filters it as a time.
      fieldTypes: { creationTimestamp: 'timestamp' },
    },
  );
  const rules = sampleForwardingRules(300);

  it('names fields as the JSON API does, with the proto types', () => {
    expect(schema.key).toBe('name');
    expect(schema.fields).toMatchObject({
      // compute.proto declares its enums as strings ("Check the IPProtocol enum for the list of
      // possible values"): the same rules match, but only the hand-written schema refuses TCPP.
      IPProtocol: { kind: 'string' },
      IPAddress: { kind: 'string' },
      labels: { kind: 'map', value: { kind: 'string' } },
      ports: { kind: 'repeated', element: { kind: 'string' } },
      id: { kind: 'int64' },
      creationTimestamp: { kind: 'timestamp' },
      allowGlobalAccess: { kind: 'bool' },
      serviceDirectoryRegistrations: { kind: 'repeated', element: { kind: 'message' } },
    });
  });

  it.each([
    'labels.env = prod',
    'labels:team AND NOT labels.env = dev',
    'IPProtocol = TCP AND loadBalancingScheme = EXTERNAL',
    'IPProtocol != UDP',
    'ports:443',
    'name = "web-*"',
    'creationTimestamp > 2025-06-01T00:00:00Z',
    'creationTimestamp <= "2025-03-01T12:00:00-05:00" OR labels.tier = db',
    'region:us-central1',
    'description:"rule"',
    'name eq "web-.*"',
    '(IPProtocol eq TCP)(labels.env ne prod)',
    'allowGlobalAccess = true',
    'portRange = "80-80"',
  ])('%s: the same rules as the hand-written schema', (filter) => {
    const fromProto = compileFilter(filter, schema);
    const handWritten = compileFilter(filter, forwardingRuleSchema);
    const names = (f: typeof fromProto) => rules.filter((r) => f.matches(r)).map((r) => r.name);
    expect(names(fromProto)).toEqual(names(handWritten));
  });
});

const library = `
syntax = "proto3";
package example.library.v1;

import "google/api/field_behavior.proto";
import "google/api/resource.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";

message Book {
  option (google.api.resource) = {
    type: "library.example.com/Book"
    pattern: "shelves/{shelf}/books/{book}"
  };
  string name = 1 [(google.api.field_behavior) = IDENTIFIER];
  string display_name = 2 [(google.api.field_behavior) = REQUIRED];
  google.protobuf.Timestamp create_time = 3 [(google.api.field_behavior) = OUTPUT_ONLY];
  google.protobuf.Timestamp publish_time = 4;
  State state = 5;
  repeated string topics = 6;
  map<string, string> labels = 7;
  Author author = 8;
  int64 page_count = 9;
  double rating = 10;
  google.protobuf.Duration read_time = 11;
  google.protobuf.Int32Value edition = 12;
  optional bool in_print = 13;
  string isbn_13 = 14 [json_name = "isbn"];
  bytes cover = 15;
  oneof source { string url = 16; string shelf_code = 17; }
  Book sequel = 18;
  enum State {
    STATE_UNSPECIFIED = 0;
    DRAFT = 1;
    PUBLISHED = 2;
  }
}

message Author {
  string display_name = 1;
  google.protobuf.Timestamp born = 2;
}

message Shelf {
  string id = 1;
  google.protobuf.Struct extra = 2;
}
`;

describe('an AIP-style resource from .proto text', () => {
  const book = (options = {}) =>
    schemaFromProto(library, { message: 'example.library.v1.Book', maxDepth: 2, ...options });

  it('maps Timestamps, Durations, wrappers, enums, maps, oneofs and json_name', () => {
    const schema = book();
    expect(schema.key).toBe('name'); // option (google.api.resource)
    expect(schema.fields).toMatchObject({
      displayName: { kind: 'string' },
      createTime: { kind: 'timestamp' },
      state: { kind: 'enum', values: ['STATE_UNSPECIFIED', 'DRAFT', 'PUBLISHED'] },
      topics: { kind: 'repeated', element: { kind: 'string' } },
      labels: { kind: 'map', value: { kind: 'string' } },
      author: {
        kind: 'message',
        fields: { displayName: { kind: 'string' }, born: { kind: 'timestamp' } },
      },
      pageCount: { kind: 'int64' },
      rating: { kind: 'double' },
      readTime: { kind: 'duration' },
      edition: { kind: 'int64' },
      inPrint: { kind: 'bool' },
      isbn: { kind: 'string' },
      cover: { kind: 'string' },
      url: { kind: 'string' },
      shelfCode: { kind: 'string' },
    });
    // A Book in a Book: cut after maxDepth levels.
    const sequel = schema.fields.sequel as { fields: Record<string, { fields?: object }> };
    expect(sequel.fields.sequel).toBeUndefined();

    const books = [
      {
        name: 'shelves/1/books/1',
        state: 'PUBLISHED',
        createTime: '2025-01-01T00:00:00Z',
        readTime: '3600s',
        author: { born: '1920-10-08T00:00:00Z' },
        edition: 2,
      },
      {
        name: 'shelves/1/books/2',
        state: 'DRAFT',
        createTime: '2025-06-01T00:00:00.5Z',
        readTime: '60s',
        author: { born: '1775-12-16T00:00:00Z' },
      },
    ];
    const match = (filter: string) => {
      const compiled = compileFilter(filter, schema);
      return books.filter((b) => compiled.matches(b)).map((b) => b.name);
    };
    expect(match('state = PUBLISHED AND readTime > 1800s')).toEqual(['shelves/1/books/1']);
    expect(match('createTime > 2025-03-01T00:00:00Z')).toEqual(['shelves/1/books/2']);
    expect(match('author.born < 1800-01-01T00:00:00Z')).toEqual(['shelves/1/books/2']);
    expect(match('edition >= 2')).toEqual(['shelves/1/books/1']);
  });

  it('refuses what has no one type by its proto path, or skips it into warnings', () => {
    expect(() => schemaFromProto(library, { message: 'example.library.v1.Shelf' })).toThrow(
      expect.objectContaining({
        code: 'unsupported_construct',
        at: 'example.library.v1.Shelf.extra',
      }),
    );
    const warnings: SchemaWarning[] = [];
    const shelf = schemaFromProto(library, { message: 'example.library.v1.Shelf', warnings });
    expect(Object.keys(shelf.fields)).toEqual(['id']);
    expect(shelf.key).toBe('id');
    expect(warnings).toEqual([
      expect.objectContaining({ at: 'example.library.v1.Shelf.extra', field: 'extra' }),
    ]);
  });

  it('names what it cannot find or parse', () => {
    expect(() => schemaFromProto(library, { message: 'example.library.v1.Nope' })).toThrow(
      expect.objectContaining({ code: 'unresolved_reference', at: 'example.library.v1.Nope' }),
    );
    expect(() => schemaFromProto(library)).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => schemaFromProto('message Broken {', { message: 'Broken' })).toThrow(
      expect.objectContaining({ code: 'invalid_source', at: 'input.proto' }),
    );
    expect(() =>
      schemaFromProto('syntax = "proto3"; message A { string name = 1; Missing m = 2; }', {
        message: 'A',
      }),
    ).toThrow(expect.objectContaining({ code: 'unresolved_reference', at: 'A.m' }));
    expect(() => book({ fieldTypes: { nope: 'timestamp' } })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});

describe('protobuf-es descriptors', () => {
  it("maps a DescMessage (descriptor.proto's own FieldDescriptorProto)", () => {
    const schema = schemaFromProto(FieldDescriptorProtoSchema);
    expect(schema.key).toBe('name');
    expect(schema.fields).toMatchObject({
      name: { kind: 'string' },
      number: { kind: 'int64' },
      label: { kind: 'enum', values: ['LABEL_OPTIONAL', 'LABEL_REPEATED', 'LABEL_REQUIRED'] },
      typeName: { kind: 'string' },
      jsonName: { kind: 'string' },
      proto3Optional: { kind: 'bool' },
      options: { kind: 'message', fields: { packed: { kind: 'bool' } } },
    });
    const field = compileFilter('label = LABEL_REPEATED AND number > 2', schema);
    expect(field.matches({ name: 'tags', number: 6, label: 'LABEL_REPEATED' })).toBe(true);
    expect(field.matches({ name: 'id', number: 1, label: 'LABEL_REPEATED' })).toBe(false);
  });
});
