// What the one MPL SQL compiler asks of an engine: the few pieces of SQL whose spelling or meaning
// differs between DuckDB and ClickHouse (literals and casts, how a series' tags are stored and
// read, list and window functions, the shape of the answer). Everything else is written once,
// in SQL both engines read alike (see compiler.ts).
import type { TagValue } from '../../model';
import type { Relation, StatementBuilder } from './statement';

export type TagType = TagValue['type'];

export interface MplEngine {
  name: string;

  // Names, literals and casts.
  /** A quoted table name. */
  identifier(name: string): string;
  /** A string literal holding `value` (already free of NUL). */
  text(value: string): string;
  /** A double literal (the values come from the query, already checked to be numbers). */
  double(value: number): string;
  /** A 64-bit integer literal of a whole number. */
  int(value: number | bigint): string;
  /** `expr` as a double (NULL stays NULL). */
  toDouble(expr: string): string;
  /** Text as a double, NULL when it is not a number. */
  textToDouble(expr: string): string;
  /** A NULL double. */
  nullDouble: string;
  /** `expr` as a nullable value, so it unites with nullable ones. */
  nullable(expr: string): string;
  /** `expr`, known not to be NULL, as a non-nullable value. */
  notNull(expr: string): string;
  /** `expr` divided by `divisor`, rounded down (whole numbers). */
  intDiv(expr: string, divisor: string): string;
  /** A stable 64-bit hash of `expr` (sampling). */
  hash(expr: string): string;

  // Series.
  /** A series id as every relation carries it: wide enough for id * 64 + view and group ids. */
  seriesId(expr: string): string;
  /** A series id as read from the store, when no view id is computed from it. */
  storedSeriesId(expr: string): string;
  /** A series table in a FROM clause, as its latest rows, optionally under an alias. */
  seriesTable(quotedName: string, alias?: string): string;
  /**
   * Group ids for the distinct kept tags of the series of `sidTags` (`idColumn`, tags):
   * `members` (sid, gid) and `groups` (gtags, gid), each group id the same in both.
   */
  groupIds(builder: StatementBuilder, sidTags: string, idColumn: string, keys: string[]): { members: string; groups: string };

  // Tags.
  emptyTags: string;
  /** The value of tag `name` in `tags`, NULL when the series has no such tag. */
  tagOf(tags: string, name: string): string;
  /** A tag value as its type, NULL when it is of another type. */
  member(value: string, type: TagType): string;
  /** True when a tag value is of `type` (NULL for a missing tag). */
  tagIs(value: string, type: TagType): string;
  /** The text of a tag value of any type (what regular expressions match). */
  tagText(value: string): string;
  /** A tag value holding a literal of the query. */
  tagValue(builder: StatementBuilder, value: TagValue): string;
  /** A string tag value holding the text `text` (NULL stays NULL). */
  stringTag(text: string): string;
  /** A float tag value holding the double `expr`. */
  floatTag(expr: string): string;
  /**
   * `tags` with the named entries replaced by new values (an entry whose value is NULL is
   * removed) and kept sorted by name, so equal tag sets are equal maps.
   */
  setTags(tags: string, entries: { key: string; value: string }[]): string;
  /** A map holding only the named tags a series has (names already sorted). */
  keepTags(tags: string, keys: string[]): string;

  // Text, lists and windows.
  /** True when `text` matches `pattern`, a regular expression anchored at both ends. */
  regexMatches(text: string, pattern: string): string;
  /** `text` with the match of the anchored `pattern` replaced by `replacement`. */
  regexReplace(text: string, pattern: string, replacement: string): string;
  /** One row per whole number from `from` up to `to` (excluded) by `step`, in a SELECT list. */
  unnestRange(from: string, to: string, step: string): string;
  /** The previous row's `expr` within the window (NULL on the first row); `list` for arrays. */
  lag(expr: string, kind?: 'value' | 'list'): string;
  /** The last / first non-NULL `expr` of the window frame. */
  lastValue(expr: string): string;
  firstValue(expr: string): string;
  /** `value`, failing the query with `message` on rows where `condition` holds. */
  failIf(condition: string, message: string, value: string): string;
  /** True when a stored list of a distribution point is there (NULL or empty when it is not). */
  listPresent(list: string): string;
  /** A list standing for no list. */
  absentList: string;
  /** The 1-based index of the first element of `list` at least `target`, 0 when none is. */
  firstIndexAtLeast(list: string, target: string): string;
  /** `left` minus `right`, element by element. */
  listMinus(left: string, right: string): string;
  /** Two aggregate columns: the values of `key` and of `value`, both in the order of `key`. */
  sortedLists(key: string, value: string, keysAlias: string, valuesAlias: string): string;
  /** Exact quantiles `qs` (interpolated) of the values of `expr`, as a list. */
  exactQuantiles(expr: string, qs: number[]): string;
  /**
   * The cells of distribution points `points` (gid, bt, dbounds, dcounts): a SELECT of (gid, bt,
   * bound, cnt), one row per bucket, the last bucket's bound infinite.
   */
  bucketCells(points: string): string;

  /**
   * The statement's final SELECT: one row per series of `root` (at most `limit`), its tags,
   * times and values in time order, over the points where `where` holds, ordered by tags.
   */
  answer(builder: StatementBuilder, root: Relation, where: string, limit: number): string;
}
