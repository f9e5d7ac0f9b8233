// Registers every REST area. Each area is a Fastify plugin in its own file.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';

export interface RouteOptions {
  services: Services;
}

export async function registerRestRoutes(app: FastifyInstance, { services }: RouteOptions) {
  void app;
  void services;
}
