// Assembles the GraphQL schema from the type areas. Importing a file registers its types.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder';
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
import './metrics';
import './ingest';
import './monitors';

export const schema = lexicographicSortSchema(builder.toSchema());
