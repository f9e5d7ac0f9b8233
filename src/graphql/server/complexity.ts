// How much an operation asks for, measured on its document before it runs: the depth of its
// field selections, and its cost, the number of fields it may resolve once the page sizes of
// connections (`first`, `last`, or the default page), of `nodes(ids)` and of long unpaged lists
// (their `extensions.maxItems`) multiply what they contain. Fragments are measured once each, so
// a document cannot make the measurement itself expensive; fragment cycles are refused by
// validation before this runs.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  type ValueNode,
} from 'graphql';

/** A connection field without `first` or `last` returns this many items (see schema/connection.ts). */
export const DEFAULT_PAGE_ESTIMATE = 100;

export interface OperationSize {
  depth: number;
  cost: number;
}

function valueOf(node: ValueNode | undefined, variables: Record<string, unknown>): unknown {
  if (!node) return undefined;
  switch (node.kind) {
    case Kind.INT:
      return Number(node.value);
    case Kind.VARIABLE:
      return variables[node.name.value];
    case Kind.LIST:
      return node.values;
    default:
      return undefined;
  }
}

/** How many times a field's selections are resolved, as far as its arguments tell. */
function multiplier(field: FieldNode, definition: GraphQLField<unknown, unknown>, variables: Record<string, unknown>): number {
  const argument = (name: string) => valueOf(field.arguments?.find((arg) => arg.name.value === name)?.value, variables);
  const hasArg = (name: string) => definition.args.some((arg) => arg.name === name);
  if (hasArg('first') || hasArg('last')) {
    const sizes = [argument('first'), argument('last')].filter((size): size is number => typeof size === 'number' && size >= 0);
    return sizes.length > 0 ? Math.min(...sizes) : DEFAULT_PAGE_ESTIMATE;
  }
  if (hasArg('ids')) {
    const ids = argument('ids');
    return Array.isArray(ids) ? ids.length : 1;
  }
  // A list without paging that may be long declares its most items (`extensions.maxItems`).
  const maxItems = definition.extensions?.maxItems;
  if (typeof maxItems === 'number') return maxItems;
  // Other lists without paging (edges inside a connection, small lists of counts) were sized above.
  return 1;
}

export function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): OperationSize {
  const fragmentSizes = new Map<string, OperationSize>();

  const fieldDefinition = (type: GraphQLNamedType, name: string) => {
    if (name === '__schema') return SchemaMetaFieldDef;
    if (name === '__type') return TypeMetaFieldDef;
    return isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
  };

  const measureSet = (selectionSet: SelectionSetNode, type: GraphQLNamedType): OperationSize => {
    let depth = 0;
    let cost = 0;
    for (const selection of selectionSet.selections) {
      let size: OperationSize;
      if (selection.kind === Kind.FIELD) {
        const definition = fieldDefinition(type, selection.name.value);
        if (!definition || !selection.selectionSet) {
          size = { depth: 1, cost: 1 };
        } else {
          const inner = measureSet(selection.selectionSet, getNamedType(definition.type));
          size = { depth: inner.depth + 1, cost: 1 + multiplier(selection, definition, variables) * inner.cost };
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        size = measureSet(selection.selectionSet, condition ?? type);
      } else {
        const name = selection.name.value;
        let known = fragmentSizes.get(name);
        if (!known) {
          const fragment = fragments[name];
          const condition = fragment ? schema.getType(fragment.typeCondition.name.value) : undefined;
          known = fragment && condition ? measureSet(fragment.selectionSet, condition) : { depth: 0, cost: 0 };
          fragmentSizes.set(name, known);
        }
        size = known;
      }
      depth = Math.max(depth, size.depth);
      cost += size.cost;
    }
    return { depth, cost };
  };

  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  return root ? measureSet(operation.selectionSet, root) : { depth: 0, cost: 0 };
}

/**
 * The deepest nesting of brackets, braces and parentheses in a document's text, outside
 * strings and comments: checked before parsing, since parsers descend recursively.
 */
export function documentNesting(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (char === '"') {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        i = end < 0 ? source.length : end + 2;
      } else {
        for (i++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
      }
    } else if (char === '{' || char === '[' || char === '(') {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (char === '}' || char === ']' || char === ')') {
      depth--;
    }
  }
  return deepest;
}
