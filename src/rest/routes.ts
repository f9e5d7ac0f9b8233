// Registers every REST area. Each area is a Fastify plugin in its own file.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { axiomApi } from './axiom-api';

export interface RouteOptions {
  services: Services;
}

export async function registerRestRoutes(app: FastifyInstance, { services }: RouteOptions) {
  await app.register(axiomApi, { services });
}
