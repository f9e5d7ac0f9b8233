// How deeply a parsed JSON value nests, found without recursion so that no input can exhaust
// the stack: request bodies, GraphQL variables and ingested arrays are checked with it before
// code that walks them recursively (serializers, validators, translators) sees them.

/** True when `value` nests objects or arrays more than `maxDepth` levels (a scalar is level 0). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: { value: object; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (depth > maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
