// The model prices every engine keeps in a table of its events database, where the genai_*
// functions of APL join them: the rows as the catalog hands them over, whichever engine stores them.
/** One price row as the catalog builds it (src/catalog/price-book.ts). */
export interface PriceTableRow {
  key: string;
  /** Date stamps (YYYYMMDD, 0 for none) in [dateFrom, dateTo). */
  dateFrom: number;
  dateTo: number;
  /** Epoch milliseconds; null: since the beginning. */
  validFrom: number | null;
  /** Epoch milliseconds; null: still valid. */
  validTo: number | null;
  modelId: string;
  providerId: string;
  inputCostPerToken: number;
  outputCostPerToken: number;
  cacheReadCostPerToken: number | null;
  cacheWriteCostPerToken: number | null;
}
