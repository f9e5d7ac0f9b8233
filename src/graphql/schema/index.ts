// Assembles the GraphQL schema from the type areas. Importing a file registers its types.
import { isObjectType, lexicographicSortSchema } from 'graphql';
import { builder, nodeTypeNames } from './builder';
import './auth';
import './identity';
import './annotations';
import './starred-queries';
import './dashboards';
import './catalog';
import './datasets';
import './map-fields';
import './virtual-fields';
import './views';
import './queries';
import './llm-usage';
import './price-history';
import './metrics';
import './ingest';
import './monitors';
import './monitor-tools';
import './live-tail';
import './apl-vocabulary';

export const schema = lexicographicSortSchema(builder.toSchema());

for (const type of Object.values(schema.getTypeMap())) {
  if (isObjectType(type) && type.getInterfaces().some((face) => face.name === 'Node')) nodeTypeNames.add(type.name);
}
