// The catalog of APL's statements, query sources and tabular operators: what the parser
// accepts, one entry each. The parser suggests names from it, and the generated reference
// (docs/reference/apl.md) lists it, so a new operator is added here together with its parse function.

export type OperatorCategory = 'statement' | 'source' | 'tabular';

export interface OperatorEntry {
  name: string;
  category: OperatorCategory;
  /** Other spellings of the same operator. */
  aliases?: string[];
  /** The grammar, in the reference's notation. */
  syntax: string;
  summary: string;
}

export const OPERATOR_CATALOG: OperatorEntry[] = [
  // ---- statements ----
  { name: 'let', category: 'statement', syntax: 'let Name = ScalarExpression | TabularExpression | [view] (Parameters) { Body };', summary: 'Binds a name to a value, a tabular expression or a user-defined function for the rest of the query.' },
  { name: 'set', category: 'statement', syntax: 'set OptionName [= Value];', summary: 'Sets a query option for this query; `stricttypes` refuses comparisons that need an implicit conversion.' },

  // ---- sources ----
  { name: 'dataset', category: 'source', syntax: "['dataset-name'] | DatasetName", summary: 'Reads the events of a dataset (or a tabular let, or a parameterless function).' },
  { name: 'union', category: 'source', syntax: 'union [kind=inner|outer] [withsource=Name] [isfuzzy=true] Table, ...', summary: 'Rows of several tables, names and wildcard patterns (`github*`, `*`) included; also usable after a pipe.' },
  { name: 'print', category: 'source', syntax: 'print [Name =] Expression, ...', summary: 'One row holding the given scalar expressions.' },
  { name: 'datatable', category: 'source', syntax: 'datatable (Name:Type, ...) [Value, ...]', summary: 'A literal table: the values fill the declared columns row by row.' },
  { name: 'externaldata', category: 'source', syntax: 'externaldata (Name:Type, ...) [URL, ...] [with (Options)]', summary: 'Refused: this server has no outbound network access; load the data into a dataset or use datatable.' },
  { name: 'search', category: 'source', syntax: 'search [kind=case_sensitive|case_insensitive] [in (Table, ...)] Predicate', summary: 'Rows of the listed (or all) datasets matching a search predicate, with a `$table` column naming the source.' },
  { name: 'find', category: 'source', syntax: 'find [withsource=Name] [in (Table, ...)] [where] Predicate [project-smart | project Name[:Type], ... [, pack_all()]]', summary: 'Rows matching a predicate across datasets; `project-smart` keeps common and referenced fields and packs the rest into `pack_`.' },

  // ---- tabular operators ----
  { name: 'where', category: 'tabular', aliases: ['filter'], syntax: '| where Predicate', summary: 'Keeps the rows for which the predicate is true; `* has "x"` tests every field.' },
  { name: 'project', category: 'tabular', syntax: '| project [Name =] Expression, ...', summary: 'Keeps, renames or computes exactly the listed fields.' },
  { name: 'project-away', category: 'tabular', syntax: '| project-away NameOrPattern, ...', summary: 'Drops the listed fields.' },
  { name: 'project-keep', category: 'tabular', syntax: '| project-keep NameOrPattern, ...', summary: 'Keeps only the listed fields, in their original order.' },
  { name: 'project-rename', category: 'tabular', syntax: '| project-rename NewName = OldName, ...', summary: 'Renames fields.' },
  { name: 'project-reorder', category: 'tabular', syntax: '| project-reorder NameOrPattern [asc|desc], ...', summary: 'Moves the listed fields first, in the order given; `*` stands for every field not named explicitly.' },
  { name: 'extend', category: 'tabular', syntax: '| extend [Name =] Expression, ...', summary: 'Adds computed fields (or replaces fields of the same name).' },
  { name: 'extend-valid', category: 'tabular', syntax: '| extend-valid Name = Expression, ...', summary: 'Like extend, but only where the value is valid (non-empty string, bag or array; non-zero finite number; true); elsewhere the field keeps its value.' },
  { name: 'summarize', category: 'tabular', syntax: '| summarize [[Name =] Aggregation, ...] [by [Name =] Expression, ...]', summary: 'Groups rows and computes aggregations per group; `bin_auto(_time)` picks the time bin from the query range.' },
  { name: 'make-series', category: 'tabular', syntax: '| make-series [Name =] Aggregation [default = Value], ... on AxisField [from Start] [to End] step Step [by [Name =] Expression, ...]', summary: 'One row per group with each aggregation as a dynamic array over evenly spaced bins, and the bins themselves as an array.' },
  { name: 'sort', category: 'tabular', aliases: ['order'], syntax: '| sort by Expression [asc|desc] [nulls first|last], ...', summary: 'Orders rows (descending by default; nulls last when descending, first when ascending).' },
  { name: 'take', category: 'tabular', aliases: ['limit'], syntax: '| take N', summary: 'At most N rows.' },
  { name: 'top', category: 'tabular', syntax: '| top N by Expression [asc|desc] [nulls first|last]', summary: 'The first N rows by the expression (descending by default).' },
  { name: 'top-nested', category: 'tabular', syntax: '| top-nested [N] of [Name =] Expression [with others = Value] by [Name =] Aggregation [asc|desc], top-nested ...', summary: 'Hierarchical top values: the top N groups of each level within each group of the level before, optionally with an "others" row.' },
  { name: 'top-hitters', category: 'tabular', syntax: '| top-hitters N of Expression [by SummedExpression]', summary: 'The N most frequent values (or those with the largest sum), counted exactly.' },
  { name: 'count', category: 'tabular', syntax: '| count', summary: 'The number of rows, in a column `count`.' },
  { name: 'distinct', category: 'tabular', syntax: '| distinct Expression, ... | distinct *', summary: 'The distinct combinations of the listed values.' },
  { name: 'sample', category: 'tabular', syntax: '| sample Fraction | sample N', summary: 'A random sample: a fraction of the rows (below 1) or N rows.' },
  { name: 'sample-distinct', category: 'tabular', syntax: '| sample-distinct N of Expression', summary: 'Up to N distinct values of the expression.' },
  { name: 'search', category: 'tabular', syntax: '| search [kind=case_sensitive|case_insensitive] Predicate', summary: 'Keeps the rows matching a search predicate: terms, `*` wildcards, `field:"term"`, and/or/not.' },
  { name: 'parse', category: 'tabular', syntax: '| parse [kind=simple|regex|relaxed] Expression with Pattern', summary: 'Extracts fields from a string by a pattern of literals, `*` and typed names.' },
  { name: 'parse-where', category: 'tabular', syntax: '| parse-where [kind=simple|regex] Expression with Pattern', summary: 'Like parse, and drops the rows the pattern does not match.' },
  { name: 'parse-kv', category: 'tabular', syntax: '| parse-kv Expression as (Key[:Type], ...) with (pair_delimiter=D, kv_delimiter=D [, quote=Q] [, escape=E] [, greedy=true]) | with (regex=R)', summary: 'Extracts the values of the listed keys from key/value text.' },
  { name: 'mv-expand', category: 'tabular', syntax: '| mv-expand [kind=bag|array] [with_itemindex=Name] [Name =] Expression [to typeof(Type)], ... [limit N]', summary: 'One row per element of a dynamic array or property of a bag; several columns expand in parallel.' },
  { name: 'redact', category: 'tabular', syntax: '| redact [replaceToken="*"] [replaceHash=true] [redactGroups=true] Regex, ... [on Field, ...]', summary: 'Masks or hashes the text matching regular expressions in the given (or all) string fields.' },
  { name: 'getschema', category: 'tabular', syntax: '| getschema', summary: 'The fields of the input: name, ordinal, data type.' },
  { name: 'join', category: 'tabular', syntax: '| join [kind=inner|innerunique|leftouter|rightouter|fullouter|leftanti|anti|rightanti|leftsemi|rightsemi] (Table) on Key | $left.A == $right.B, ...', summary: 'Combines rows of two tables with equal keys; the kind decides which rows and fields remain.' },
  { name: 'lookup', category: 'tabular', syntax: '| lookup [kind=leftouter|inner] (Table) on Key | $left.A == $right.B, ...', summary: 'Adds the fields of a lookup table to matching rows, without repeating the key fields.' },
  { name: 'union', category: 'tabular', syntax: '| union [kind=inner|outer] [withsource=Name] [isfuzzy=true] Table, ...', summary: 'Appends the rows of other tables to the input.' },
  { name: 'invoke', category: 'tabular', syntax: '| invoke Function([Arguments])', summary: 'Calls a user-defined tabular function with the input as its first argument.' },
];

/** Every name that may follow a `|`, aliases included. */
export const TABULAR_OPERATOR_NAMES: string[] = OPERATOR_CATALOG.filter((entry) => entry.category === 'tabular').flatMap((entry) => [entry.name, ...(entry.aliases ?? [])]);
