// A small reader of prisma/schema.prisma: enough of the grammar (models, scalar fields,
// optionality, @id/@unique/@map/@default, relations with their foreign keys,
// @@id/@@unique/@@index/@@map) to compare the schema with the tables that the SQL migrations
// create, on SQLite and on PostgreSQL.
export interface PrismaField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  isId: boolean;
  isUnique: boolean;
  hasDefault: boolean;
}

export interface PrismaForeignKey {
  columns: string[];
  /** The referenced model's name (its table is resolved by `foreignKeysOf`). */
  model: string;
  references: string[];
  onDelete: string;
}

export interface PrismaModel {
  name: string;
  table: string;
  fields: PrismaField[];
  /** Relations that hold the foreign key on this model's side, by field names. */
  relations: PrismaForeignKey[];
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

/** `name: [a, b]` inside an attribute's arguments. */
function namedList(name: string, source: string): string[] | undefined {
  const match = new RegExp(`\\b${name}:\\s*\\[([^\\]]*)\\]`).exec(source);
  return match?.[1]!.split(',').map((item) => item.trim());
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
    const relations: PrismaForeignKey[] = [];
    const fieldLines = lines.filter((line) => !line.startsWith('@@'));
    for (const line of fieldLines) {
      const [fieldName, rawType, ...rest] = line.split(/\s+/) as [string, string, ...string[]];
      const attributes = rest.join(' ');
      const type = rawType.replace(/[?[\]]/g, '');
      if (!SCALARS.has(type)) {
        const keyFields = namedList('fields', attributes);
        const references = namedList('references', attributes);
        if (keyFields && references) {
          // Prisma's default: Restrict for a required relation, SetNull for an optional one.
          const onDelete = /onDelete:\s*(\w+)/.exec(attributes)?.[1] ?? (rawType.endsWith('?') ? 'SetNull' : 'Restrict');
          relations.push({ columns: keyFields, model: type, references, onDelete });
        }
        continue; // relation field
      }
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
    for (const relation of relations) relation.columns = relation.columns.map(columnOf);
    models.push({ name, table, fields, relations, primaryKey, uniques, indexes });
  }
  return models;
}

/** The model's foreign keys as `columns -> table(columns) ON DELETE action`, sorted, for comparison. */
export function foreignKeysOf(model: PrismaModel, models: PrismaModel[]): string[] {
  return model.relations
    .map((relation) => {
      const target = models.find((candidate) => candidate.name === relation.model)!;
      const references = relation.references.map((name) => target.fields.find((field) => field.name === name)?.column ?? name);
      const action = relation.onDelete.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
      return `${relation.columns.join(',')} -> ${target.table}(${references.join(',')}) ON DELETE ${action}`;
    })
    .sort();
}

/** The column type Prisma's PostgreSQL migrations use for each scalar type (information_schema's names). */
export const POSTGRES_TYPE_OF: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

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
