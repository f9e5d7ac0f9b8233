// Operator commands, run beside a server over the same configuration (DATA_DIR, DATABASE_URL, ...):
// what they write is in the relational store, usable at once through every instance.
//   token    prints a new personal token for a member, and nothing else, for scripts;
//   password sets a user's console password, read as one line from stdin (ends their sessions);
//   invite   creates the user if new and prints a one-time link to choose a password and join;
//   reset    prints a one-time link to choose a new password.
// Links are also mailed when SMTP_URL is set. Errors go to stderr with exit code 1 (2 for a wrong
// command line or configuration). `runAdminCommand` is the command whole, for callers that run it
// without a process of its own.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { IssuedLink } from '../src/auth/login-links';
import { type Config, ConfigError, loadConfig } from '../src/config';
import { openRelationalStore, type RelationalStore } from '../src/db/store';
import { describeError } from '../src/errors';
import { issuePersonalToken } from '../src/identity/personal-tokens';

const USAGE = `Usage: npm run -s admin -- COMMAND [OPTIONS]

  token --org ORG_ID --email EMAIL [--name NAME]
      Creates a personal token for the member with EMAIL in organization ORG_ID and prints it.
      --name NAME    a name for the token (default: "issued by npm run admin")
  password --email EMAIL
      Sets the console password of the user with EMAIL to the first line read from stdin
      (at least 8 characters); every session of the user ends.
  invite --email EMAIL --org ORG_ID [--role ROLE]
      Creates the user if new and prints a one-time link (valid 7 days) to choose a password and
      join ORG_ID with ROLE (default: user).
  reset --email EMAIL
      Prints a one-time link (valid 1 hour) to choose a new password.

Invitation and reset links are also mailed to EMAIL when SMTP_URL is set.
`;

const COMMANDS = ['token', 'password', 'invite', 'reset'] as const;
type Command = (typeof COMMANDS)[number];
type Options = { org?: string; email?: string; name?: string; role?: string };

class UsageError extends Error {}

/** What the command reads and writes: the process's streams, or anything alike. */
export interface CommandStreams {
  stdin: AsyncIterable<string | Buffer> & { isTTY?: boolean };
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** The first line of stdin, without its line ending. */
async function readLine(io: CommandStreams): Promise<string> {
  if (io.stdin.isTTY) io.stderr.write('New password: ');
  let text = '';
  for await (const chunk of io.stdin) {
    text += chunk;
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

function required(values: Options, names: (keyof Options)[]): void {
  const missing = names.filter((name) => !values[name]);
  if (missing.length > 0) throw new UsageError(`${names.map((name) => `--${name}`).join(' and ')} ${names.length > 1 ? 'are' : 'is'} required`);
}

async function printLink(io: CommandStreams, config: Config, link: IssuedLink): Promise<void> {
  io.stdout.write(`${link.url}\n`);
  const { mailLink } = await import('../src/auth/link-mail');
  if (await mailLink(config.monitors.smtpUrl, config.monitors.smtpFrom, link)) io.stderr.write(`mailed to ${link.email}\n`);
}

async function execute(io: CommandStreams, command: Command, values: Options, config: Config, store: RelationalStore): Promise<void> {
  if (command === 'token') {
    io.stdout.write(`${await issuePersonalToken(store.prisma, values.org!, values.email!, values.name)}\n`);
    return;
  }
  // Loaded only by the commands that need them (password hashing, mail), so `token` starts fast.
  const { AuthService } = await import('../src/auth/service');
  const auth = new AuthService(store, config);
  switch (command) {
    case 'password':
      await auth.signIn.setPasswordByEmail(values.email!, await readLine(io));
      io.stderr.write(`password set for ${values.email}\n`);
      return;
    case 'invite':
      return printLink(io, config, await auth.loginLinks.invite(values.email!, values.org!, values.role ?? 'user'));
    case 'reset':
      return printLink(io, config, await auth.loginLinks.reset(values.email!));
  }
}

/** Runs one command: arguments, environment and streams in, exit code out. */
export async function runAdminCommand(argv: string[], env: Record<string, string | undefined>, io: CommandStreams): Promise<number> {
  const fail = (message: string, code: number): number => {
    io.stderr.write(`${message}\n`);
    return code;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        org: { type: 'string' },
        email: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const command = positionals[0] as Command;
  if (positionals.length !== 1 || !COMMANDS.includes(command)) return fail(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`, 2);
  try {
    const needs: Record<Command, (keyof Options)[]> = { token: ['org', 'email'], password: ['email'], invite: ['email', 'org'], reset: ['email'] };
    required(values, needs[command]);
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message, 2);
    throw error;
  }
  const store = await openRelationalStore(config.database);
  try {
    await execute(io, command, values, config, store);
    return 0;
  } catch (error) {
    const { message, expected } = describeError(error);
    return fail(expected ? message : String(error), 1);
  } finally {
    await store.close();
  }
}

// Run as a script (not imported): the process's arguments, environment and streams.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAdminCommand(process.argv.slice(2), process.env, process).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
