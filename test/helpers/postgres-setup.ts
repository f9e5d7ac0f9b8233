// Global setup of the `postgres` test project: one PostgreSQL cluster for the whole run, whose
// admin URL the tests read with inject('postgresAdminUrl').
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
