import type { Services } from '../services';

export interface GraphQLContext {
  services: Services;
  request: Request;
}
