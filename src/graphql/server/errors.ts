// Maps errors thrown by resolvers to GraphQL errors through the shared domain mapping:
// domain errors keep their message and get `extensions.code`; anything else is masked.
import { GraphQLError } from 'graphql';
import { describeError } from '../../errors';

export function maskGraphQLError(error: unknown, fallbackMessage: string): Error {
  const graphqlError = error instanceof GraphQLError ? error : undefined;
  const original = graphqlError?.originalError ?? error;
  if (graphqlError && !graphqlError.originalError) return graphqlError; // validation/syntax errors
  // Variables that do not fit their types: graphql-js wraps its own coercion error.
  if (graphqlError && graphqlError.originalError instanceof GraphQLError) {
    return new GraphQLError(graphqlError.message, {
      nodes: graphqlError.nodes,
      path: graphqlError.path,
      extensions: { code: 'BAD_USER_INPUT', ...graphqlError.extensions },
    });
  }
  const description = describeError(original);
  if (!description.expected) {
    return new GraphQLError(fallbackMessage, {
      nodes: graphqlError?.nodes,
      path: graphqlError?.path,
      extensions: { code: description.graphqlCode },
    });
  }
  return new GraphQLError(description.message, {
    nodes: graphqlError?.nodes,
    path: graphqlError?.path,
    extensions: { ...description.details, code: description.graphqlCode },
  });
}
