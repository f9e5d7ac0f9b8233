// What one GraphQL request may ask, enforced for every operation, public catalog fields
// included: variables nested no deeper than JSON request bodies, documents of at most
// GRAPHQL_MAX_TOKENS tokens whose brackets nest within reach of the parser, operations within
// GRAPHQL_MAX_DEPTH field levels and GRAPHQL_MAX_COST fields (page sizes multiplying what they
// contain), and an answer within GRAPHQL_TIMEOUT_MS: past it the request is answered with a
// TIMEOUT error and its signal aborts what still runs (queries in the event store).
import { type ExecutionResult, type FragmentDefinitionNode, GraphQLError, getOperationAST, Kind, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLLimits } from '../../config';
import { nestsDeeperThan } from '../../lib/json-depth';
import { documentNesting, measureOperation } from './complexity';

export interface ProtectionLimits extends GraphQLLimits {
  /** Deepest nesting of variables (JSON_MAX_DEPTH). */
  jsonMaxDepth: number;
}

/** Brackets a parsed document may nest: enough for any field depth allowed plus argument values. */
const nestingAllowed = (limits: GraphQLLimits) => limits.maxDepth * 2 + 20;

function refusal(message: string, code: string, status = 400): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status } } });
}


export function protection(limits: ProtectionLimits): Plugin<{ signal?: AbortSignal }> {
  return {
    onParams({ params }) {
      if (nestsDeeperThan(params.variables, limits.jsonMaxDepth) || nestsDeeperThan(params.extensions, limits.jsonMaxDepth)) {
        throw refusal(`variables nest deeper than ${limits.jsonMaxDepth} levels`, 'BAD_USER_INPUT');
      }
    },

    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        const text = typeof source === 'string' ? source : source.body;
        const nesting = documentNesting(text);
        if (nesting > nestingAllowed(limits)) {
          throw refusal(`the document nests brackets ${nesting} deep, more than the ${nestingAllowed(limits)} allowed`, 'BAD_USER_INPUT');
        }
        // graphql-js stops after this many tokens with a syntax error naming the limit.
        return parse(source, { ...options, maxTokens: limits.maxTokens });
      });
    },

    onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation) {
        const fragments: Record<string, FragmentDefinitionNode> = {};
        for (const definition of args.document.definitions) {
          if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
        }
        const { depth, cost } = measureOperation(args.schema, operation, fragments, (args.variableValues ?? {}) as Record<string, unknown>);
        if (depth > limits.maxDepth) {
          return setResultAndStopExecution({
            errors: [refusal(`the operation nests fields ${depth} deep, more than the ${limits.maxDepth} allowed (GRAPHQL_MAX_DEPTH)`, 'LIMIT_EXCEEDED')],
          });
        }
        if (cost > limits.maxCost) {
          return setResultAndStopExecution({
            errors: [
              refusal(
                `the operation may resolve ${cost} fields, more than the ${limits.maxCost} allowed (GRAPHQL_MAX_COST): ask for smaller pages (first, last) or fewer nested connections`,
                'LIMIT_EXCEEDED',
              ),
            ],
          });
        }
      }
      const signal = (args.contextValue as { signal?: AbortSignal }).signal;
      if (!signal) return;
      const timedOut = (): ExecutionResult => ({ errors: [refusal(`the request ran longer than its time budget of ${limits.timeoutMs} ms`, 'TIMEOUT', 408)] });
      setExecuteFn(async (executeArgs) => {
        if (signal.aborted) return timedOut();
        let stop!: () => void;
        const stopped = new Promise<ExecutionResult>((resolve) => {
          stop = () => resolve(timedOut());
          signal.addEventListener('abort', stop, { once: true });
        });
        try {
          return await Promise.race([executeFn(executeArgs) as Promise<ExecutionResult>, stopped]);
        } finally {
          signal.removeEventListener('abort', stop);
        }
      });
    },
  };
}
