// Starts the service: validated configuration, the application, and graceful shutdown on
// SIGTERM/SIGINT (finish requests in flight, flush the stores, exit).
import v8 from 'node:v8';
import { ConfigError, loadConfig } from './config';

// The service runs in production mode unless told otherwise. graphql-js reads NODE_ENV once, when
// it loads: outside production every failed type test during execution (is this a list? an
// object type?) also looks for a copy of graphql-js from another package, which showed up as a
// tenth of the server's time serving many live tails; so the application is imported only after
// this line (see `main`). Our other dependencies that read it: Prisma words its errors "minimal"ly
// in production; Yoga looks only for "development" and "test".
process.env.NODE_ENV ??= 'production';

// Between full collections V8 lets the heap grow up to four times its live size. Ingest
// allocates fast and most of it dies soon after each batch, so the default lets hundreds of MB
// of garbage pile up; growing by half the live size keeps the process small at little cost.
v8.setFlagsFromString('--heap-growing-percent=50');

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const { createApp } = await import('./app');
  const app = await createApp(config);
  const log = app.services.logger;
  // A rejection nobody handled is a bug to log, not a reason to drop every other request.
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'a promise was rejected and nothing handled it'));
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await app.server.listen({ host: config.host, port: config.port });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
