// Derives the PostgreSQL twin of prisma/schema.prisma: the same models, the `postgresql`
// provider, and its own client output. Prisma allows one provider per schema file, so the
// models are written once (for SQLite, the default) and this text transform makes the other.
// Shared by the generator script and by the test that keeps the derived file current.

export const POSTGRES_CLIENT_OUTPUT = '../../src/generated/prisma-postgres';

const HEADER =
  '// Derived from prisma/schema.prisma by scripts/generate-prisma.mjs (npm run prisma:generate).\n' +
  '// Do not edit: change prisma/schema.prisma, then add the PostgreSQL twin of its migration in\n' +
  '// prisma/postgres/migrations.\n\n';

/** Replaces `key = "..."` inside the block `kind name { ... }`; throws when either is missing. */
function setInBlock(text, kind, key, value) {
  const block = new RegExp(`(^${kind}\\s+\\w+\\s*\\{[\\s\\S]*?^\\s*${key}\\s*=\\s*)"[^"]*"`, 'm');
  if (!block.test(text)) throw new Error(`prisma/schema.prisma: no ${key} in a ${kind} block`);
  return text.replace(block, `$1"${value}"`);
}

export function derivePostgresSchema(sqliteSchema) {
  let text = setInBlock(sqliteSchema, 'datasource', 'provider', 'postgresql');
  text = setInBlock(text, 'generator', 'output', POSTGRES_CLIENT_OUTPUT);
  return HEADER + text;
}
