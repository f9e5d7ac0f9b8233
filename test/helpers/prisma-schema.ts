// A small reader of prisma/schema.prisma: enough of the grammar (models, scalar fields,
// optionality, @id/@unique/@map/@default, @@id/@@unique/@@index/@@map) to compare the schema
// with the tables that the SQL migrations create.
export interface PrismaField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  isId: boolean;
  isUnique: boolean;
  hasDefault: boolean;
}

export interface PrismaModel {
  name: string;
  table: string;
  fields: PrismaField[];
  /** Column lists of @@id (or the single @id field). */
  primaryKey: string[];
  uniques: string[][];
  indexes: string[][];
}

const SCALARS = new Set(['String', 'Int', 'BigInt', 'Float', 'Decimal', 'Boolean', 'DateTime', 'Json', 'Bytes']);

function listArgument(attribute: string, source: string): string[] | undefined {
  const match = new RegExp(`${attribute}\\(\\[([^\\]]*)\\]`).exec(source);
  return match?.[1]!.split(',').map((name) => name.trim());
}

export function parsePrismaSchema(text: string): PrismaModel[] {
  const models: PrismaModel[] = [];
  const blockPattern = /^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm;
  for (const block of text.matchAll(blockPattern)) {
    const [, name, body] = block as unknown as [string, string, string];
    const lines = body
      .split('\n')
      .map((line) => line.replace(/\/\/.*$/, '').trim())
      .filter(Boolean);
    const fields: PrismaField[] = [];
    let table = name;
    let primaryKey: string[] = [];
    const uniques: string[][] = [];
    const indexes: string[][] = [];
    const fieldLines = lines.filter((line) => !line.startsWith('@@'));
    for (const line of fieldLines) {
      const [fieldName, rawType, ...rest] = line.split(/\s+/) as [string, string, ...string[]];
      const attributes = rest.join(' ');
      const type = rawType.replace(/[?[\]]/g, '');
      if (!SCALARS.has(type)) continue; // relation field
      const column = /@map\("([^"]+)"\)/.exec(attributes)?.[1] ?? fieldName;
      fields.push({
        name: fieldName,
        column,
        type,
        optional: rawType.endsWith('?'),
        isId: /@id\b/.test(attributes),
        isUnique: /@unique\b/.test(attributes),
        hasDefault: /@default\(/.test(attributes),
      });
    }
    const columnOf = (fieldName: string) => fields.find((field) => field.name === fieldName)?.column ?? fieldName;
    for (const line of lines.filter((line) => line.startsWith('@@'))) {
      const mapped = /^@@map\("([^"]+)"\)/.exec(line);
      if (mapped) table = mapped[1]!;
      const id = line.startsWith('@@id') ? listArgument('@@id', line) : undefined;
      if (id) primaryKey = id.map(columnOf);
      const unique = line.startsWith('@@unique') ? listArgument('@@unique', line) : undefined;
      if (unique) uniques.push(unique.map(columnOf));
      const index = line.startsWith('@@index') ? listArgument('@@index', line) : undefined;
      if (index) indexes.push(index.map(columnOf));
    }
    const idField = fields.find((field) => field.isId);
    if (idField) primaryKey = [idField.column];
    for (const field of fields.filter((f) => f.isUnique)) uniques.push([field.column]);
    models.push({ name, table, fields, primaryKey, uniques, indexes });
  }
  return models;
}

/** The column type Prisma's SQLite migrations use for each scalar type. */
export const SQLITE_TYPE_OF: Record<string, string> = {
  String: 'TEXT',
  Int: 'INTEGER',
  BigInt: 'BIGINT',
  Float: 'REAL',
  Decimal: 'DECIMAL',
  Boolean: 'BOOLEAN',
  DateTime: 'DATETIME',
  Json: 'JSONB',
  Bytes: 'BLOB',
};
