// Turns a starred APL query into what a live tail follows: a dataset and an optional predicate.
// Only queries that read one dataset and filter it can be tailed (`['logs'] | where status >= 500`,
// several `where` stages are joined with `and`); anything that aggregates, projects or joins
// cannot, and the reason says so.
import { type Token, tokenize } from '@server/apl/syntax/lexer';

export type TailQuery = { ok: true; dataset: string; filter: string } | { ok: false; reason: string };

const SHAPE = "only queries of the form ['dataset'] | where <predicate> can be followed live";

function isOperator(token: Token | undefined, text: string): boolean {
  return token?.kind === 'operator' && token.text === text;
}

export function tailQueryOf(apl: string): TailQuery {
  let tokens: Token[];
  try {
    tokens = tokenize(apl);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  let index = 0;
  let dataset: string;
  if (isOperator(tokens[0], '[') && tokens[1]?.kind === 'string' && isOperator(tokens[2], ']')) {
    dataset = tokens[1].text;
    index = 3;
  } else if (tokens[0]?.kind === 'identifier') {
    dataset = tokens[0].text;
    index = 1;
  } else {
    return { ok: false, reason: `${SHAPE}: it does not start with a dataset` };
  }

  const predicates: string[] = [];
  while (tokens[index]?.kind !== 'end' && index < tokens.length) {
    const pipe = tokens[index];
    const stage = tokens[index + 1];
    if (!isOperator(pipe, '|') || stage?.kind !== 'identifier' || (stage.text !== 'where' && stage.text !== 'filter')) {
      const found = stage?.kind === 'identifier' ? `a "${stage.text}" stage` : 'more than filters';
      return { ok: false, reason: `${SHAPE}: it has ${found}` };
    }
    let end = index + 2;
    while (end < tokens.length && tokens[end]!.kind !== 'end' && !isOperator(tokens[end], '|')) end++;
    const from = stage.pos.offset + stage.raw.length;
    const to = end < tokens.length ? tokens[end]!.pos.offset : apl.length;
    const predicate = apl.slice(from, to).trim();
    if (!predicate) return { ok: false, reason: `${SHAPE}: a "where" has no predicate` };
    predicates.push(predicate);
    index = end;
  }
  const filter = predicates.length <= 1 ? (predicates[0] ?? '') : predicates.map((predicate) => `(${predicate})`).join(' and ');
  return { ok: true, dataset, filter };
}
