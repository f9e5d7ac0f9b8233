// APL tools: run a query with agent-sized results, check a query without running it, and look
// up operators and functions in the engine's own tables.
import { z } from 'zod';
import { datasetNamesOf, parseQuery } from '../../apl';
import { DomainError } from '../../errors';
import { csvOf, fitTable, type Table } from '../fit-result';
import { defineTool, type ToolContext } from '../tool-kit';
import { searchReference } from '../apl-reference';

export const MAX_ROWS = 1_000;

const columnSchema = z.object({ name: z.string(), type: z.string() });

/** Rows of an answer's column-major table. */
function rowsOf(columns: unknown[][]): unknown[][] {
  const count = columns[0]?.length ?? 0;
  const rows: unknown[][] = [];
  for (let row = 0; row < count; row++) rows.push(columns.map((column) => column[row] ?? null));
  return rows;
}

/** How many rows the whole query gives, counted by the engine; null when it cannot say. */
async function countRows(context: ToolContext, apl: string, startTime: string, endTime: string): Promise<number | null> {
  try {
    const answer = await context.services.queries.apl(context.principal, { apl: `${apl}\n| count`, startTime, endTime }, { signal: context.signal });
    const value = answer.table.columns[0]?.[0];
    return typeof value === 'number' ? value : value === undefined || value === null ? null : Number(value);
  } catch {
    return null;
  }
}

export const queryApl = defineTool({
  name: 'queryApl',
  title: 'Run an APL query',
  description:
    "Runs an APL (Axiom Processing Language, Kusto-like) query over events datasets, e.g. \"['my-logs'] | where status >= 500 | summarize count() by bin(_time, 5m), uri\". " +
    'Returns columns, rows (at most maxRows, default 100, up to 1000), totalRows, truncated and what was omitted. ' +
    'Prefer summarize/count/top over reading raw events; project the fields you need. Call getDatasetSchema first for field names, validateApl to check a query.',
  input: {
    apl: z.string().min(1).max(100_000).describe("The APL query; dataset names in brackets: ['dataset-name']"),
    startTime: z.string().max(100).default('now-30m').describe('Start of the time window: RFC 3339 or relative (now-1h, now-7d)'),
    endTime: z.string().max(100).default('now').describe('End of the time window: RFC 3339 or relative'),
    maxRows: z.number().int().min(1).max(MAX_ROWS).default(100).describe('Most rows to return (1 to 1000)'),
  },
  output: {
    columns: z.array(columnSchema),
    rows: z.array(z.array(z.unknown())).describe('One array per row, in the order of columns'),
    totalRows: z.number().nullable().describe('Rows the whole query gives (null when unknown)'),
    returnedRows: z.number(),
    truncated: z.boolean().describe('True when rows or columns were left out or values cut'),
    omitted: z.object({
      rows: z.number().describe('Rows not returned'),
      columns: z.array(z.string()).describe('Columns dropped to fit the size budget, widest first'),
      cutValues: z.number().describe('Values cut short (marked with "…[cut: N more characters]")'),
    }),
    elapsedMs: z.number(),
    datasets: z.array(z.string()),
    hints: z.array(z.string()),
  },
  async run({ apl, startTime, endTime, maxRows }, context) {
    const answer = await context.services.queries.apl(context.principal, { apl, startTime, endTime, limit: maxRows }, { signal: context.signal });
    const full: Table = { columns: answer.table.fields.map((field) => ({ name: field.name, type: field.type })), rows: rowsOf(answer.table.columns) };
    const moreRows = answer.status.isPartial;
    const totalRows = moreRows ? await countRows(context, apl, startTime, endTime) : full.rows.length;
    const base = {
      totalRows,
      elapsedMs: Math.round(answer.status.elapsedTime / 1000),
      datasets: answer.datasetNames,
    };
    const measure = (table: Table) => Buffer.byteLength(JSON.stringify({ ...base, ...table })) + Buffer.byteLength(csvOf(table)) + 2_000;
    const { table, omitted } = fitTable(full, measure);
    const notReturned = (totalRows ?? full.rows.length + (moreRows ? 1 : 0)) - table.rows.length;
    const truncated = moreRows || omitted.rows > 0 || omitted.columns.length > 0 || omitted.cutValues > 0;
    const hints: string[] = [];
    if (moreRows || omitted.rows > 0) {
      hints.push(
        'Not every row was returned: aggregate with summarize (e.g. summarize count() by field), narrow with where or a shorter time window, or use take/top for a sample.',
      );
    }
    if (omitted.columns.length > 0 || omitted.cutValues > 0) hints.push('Values were too wide: project only the fields you need (project a, b, c).');
    const structured = {
      columns: table.columns,
      rows: table.rows,
      ...base,
      returnedRows: table.rows.length,
      truncated,
      omitted: { ...omitted, rows: Math.max(0, notReturned) },
      hints,
    };
    const notes = [
      `${table.rows.length} of ${totalRows ?? 'more than ' + full.rows.length} rows${truncated ? ' (truncated)' : ''}, ${structured.elapsedMs} ms`,
      ...(omitted.columns.length ? [`columns left out: ${omitted.columns.join(', ')}`] : []),
      ...hints,
    ];
    return { structured, text: `${csvOf(table)}\n\n${notes.join('\n')}` };
  },
});

export const validateApl = defineTool({
  name: 'validateApl',
  title: 'Check an APL query',
  description:
    'Checks an APL query without running it: syntax, the datasets it reads (and that this token may query them), field names and types. ' +
    'Answers valid with the result columns, or the errors with line and column.',
  input: {
    apl: z.string().min(1).max(100_000).describe('The APL query to check'),
  },
  output: {
    valid: z.boolean(),
    errors: z.array(z.object({ message: z.string(), line: z.number().optional(), column: z.number().optional() })),
    datasets: z.array(z.string()).describe('The datasets the query reads'),
    columns: z.array(columnSchema).describe('The result columns, when valid'),
  },
  async run({ apl }, context) {
    let datasets: string[] = [];
    try {
      datasets = datasetNamesOf(parseQuery(apl, context.services.config.apl));
      const shape = await context.services.queries.describe(context.principal, apl);
      const structured = { valid: true, errors: [], datasets: shape.datasets, columns: shape.columns };
      return { structured, text: `valid; reads ${shape.datasets.join(', ') || 'no dataset'}; columns: ${shape.columns.map((c) => `${c.name}:${c.type}`).join(', ')}` };
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind === 'timeout' || error.kind === 'unavailable') throw error;
      const line = typeof error.details?.line === 'number' ? error.details.line : undefined;
      const column = typeof error.details?.column === 'number' ? error.details.column : undefined;
      const problem = { message: error.message, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) };
      return { structured: { valid: false, errors: [problem], datasets, columns: [] }, text: `invalid: ${error.message}` };
    }
  },
});

export const aplReference = defineTool({
  name: 'aplReference',
  title: 'Look up APL',
  description:
    'Finds APL operators, scalar operators, scalar functions and aggregations this server supports, by name or words ' +
    '(e.g. "summarize", "parse", "percentile", "ip", "datetime"), with their syntax and what they do.',
  input: {
    search: z.string().min(1).max(200).describe('A name or words to look for'),
    limit: z.number().int().min(1).max(100).default(30).describe('Most entries to return'),
  },
  output: {
    entries: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(['statement', 'source', 'tabular operator', 'scalar operator', 'scalar function', 'aggregation']),
        signature: z.string(),
        description: z.string(),
        aliases: z.array(z.string()),
      }),
    ),
    more: z.number().describe('Matching entries not returned'),
  },
  async run({ search, limit }) {
    const matches = searchReference(search);
    const entries = matches.slice(0, limit);
    const text = entries.map((entry) => `${entry.signature}  [${entry.kind}] ${entry.description}`).join('\n') || 'nothing matches';
    return { structured: { entries, more: matches.length - entries.length }, text };
  },
});
