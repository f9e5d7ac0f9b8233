// APL's words as the server lists them (the public `aplVocabulary` query): operators with their
// syntax and summary, scalar operators, scalar functions and aggregations. Asked once per page
// load; a failed request is asked again next time.
import { graphql } from '../api/client';

export interface VocabularyOperator {
  name: string;
  category: 'statement' | 'source' | 'tabular';
  aliases: string[];
  syntax: string;
  summary: string;
}

export interface VocabularyFunction {
  name: string;
  aliases: string[];
  family: string | null;
}

export interface AplVocabulary {
  operators: VocabularyOperator[];
  scalarOperators: { group: string; operators: string[] }[];
  scalarFunctions: VocabularyFunction[];
  aggregations: VocabularyFunction[];
}

const QUERY = `query AplVocabulary { aplVocabulary {
  operators { name category aliases syntax summary }
  scalarOperators { group operators }
  scalarFunctions { name aliases family }
  aggregations { name aliases family }
} }`;

let pending: Promise<AplVocabulary> | undefined;

export function loadVocabulary(): Promise<AplVocabulary> {
  pending ??= graphql<{ aplVocabulary: AplVocabulary }>(QUERY).then(
    (data) => data.aplVocabulary,
    (error: unknown) => {
      pending = undefined;
      throw error;
    },
  );
  return pending;
}
