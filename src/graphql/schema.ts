// Assembles the GraphQL schema from the type areas. Importing a file registers its types.
import { isObjectType, lexicographicSortSchema } from 'graphql';
import { builder, nodeTypeNames } from './builder';
import './auth';
import './catalog';
import './datasets';
import './map-fields';
import './queries';
import './llm-usage';
import './ingest';

export const schema = lexicographicSortSchema(builder.toSchema());

for (const type of Object.values(schema.getTypeMap())) {
  if (isObjectType(type) && type.getInterfaces().some((face) => face.name === 'Node')) nodeTypeNames.add(type.name);
}
