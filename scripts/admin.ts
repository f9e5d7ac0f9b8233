// `npm run -s admin -- token --org ORG_ID --email EMAIL`: prints a new personal token for that
// member of that organization on stdout, and nothing else, for operators and scripts. It reads
// the same configuration as the server (DATA_DIR, DATABASE_URL, ...) and works beside a running
// one: the token is a row in the relational store, usable at once through every instance.
// Errors go to stderr with exit code 1 (2 for a wrong command line or configuration).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config';
import { openRelationalStore } from '../src/db/store';
import { describeError } from '../src/errors';
import { issuePersonalToken } from '../src/identity/personal-tokens';

const USAGE = `Usage: npm run -s admin -- token --org ORG_ID --email EMAIL [--name NAME]

Creates a personal token for the member with EMAIL in organization ORG_ID and prints it.
  --org ORG_ID   the organization (its id, as in X-Axiom-Org-Id)
  --email EMAIL  the member's email
  --name NAME    a name for the token (default: "issued by npm run admin")
`;

function fail(message: string, code: number): number {
  process.stderr.write(`${message}\n`);
  return code;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      options: { org: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== 'token') return fail(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`, 2);
  if (!values.org || !values.email) return fail(`--org and --email are required\n\n${USAGE}`, 2);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message, 2);
    throw error;
  }
  const store = await openRelationalStore(config.database);
  try {
    const token = await issuePersonalToken(store.prisma, values.org, values.email, values.name);
    process.stdout.write(`${token}\n`);
    return 0;
  } catch (error) {
    const { message, expected } = describeError(error);
    return fail(expected ? message : String(error), 1);
  } finally {
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
