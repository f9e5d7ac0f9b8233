// The one Pothos builder. Each type area registers its types in its own file under
// src/graphql/ (imported by schema.ts); resolvers call the domain services on the context.
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import { DateTimeResolver, JSONResolver, NonNegativeIntResolver } from 'graphql-scalars';
import type { GraphQLContext } from './context';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    NonNegativeInt: { Input: number; Output: number };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [RelayPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
  },
});

builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('JSON', JSONResolver);
builder.addScalarType('NonNegativeInt', NonNegativeIntResolver);

builder.queryType({});
builder.mutationType({});
