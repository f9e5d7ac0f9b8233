// Assembles the GraphQL schema from the type areas. Importing a file registers its types.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder';
import './auth';
import './catalog';
import './datasets';
import './map-fields';
import './queries';
import './llm-usage';
import './ingest';

export const schema = lexicographicSortSchema(builder.toSchema());
