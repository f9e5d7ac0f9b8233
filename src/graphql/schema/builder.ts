// The one Pothos builder. Each type area registers its types in its own file of this folder
// (imported by index.ts); resolvers call the domain services on the context.
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import { DateTimeResolver, JSONResolver, NonNegativeIntResolver } from 'graphql-scalars';
import type { GraphQLContext } from './context';
import { invalidInput } from '../../errors';

/** Types whose objects have global ids (filled in once the schema is built, see index.ts). */
export const nodeTypeNames = new Set<string>();

/**
 * Reads a global id (base64 of `Type:id`). A malformed id, or one of a type that has no global
 * ids, is the caller's mistake: BAD_USER_INPUT rather than an internal error.
 */
function decodeGlobalId(globalId: string): { typename: string; id: string } {
  const decoded = Buffer.from(globalId, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const typename = decoded.slice(0, colon);
  const id = decoded.slice(colon + 1);
  if (colon <= 0 || id === '' || !nodeTypeNames.has(typename) || Buffer.from(decoded).toString('base64').replace(/=+$/, '') !== globalId.replace(/=+$/, '')) {
    throw invalidInput(`"${globalId.length > 80 ? `${globalId.slice(0, 80)}…` : globalId}" is not a node id of this API`);
  }
  return { typename, id };
}

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
    decodeGlobalID: decodeGlobalId,
  },
});

builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('JSON', JSONResolver);
builder.addScalarType('NonNegativeInt', NonNegativeIntResolver);

builder.queryType({});
builder.mutationType({});
