// User-defined functions (`let f = (a:long, T:(*)) { ... };`): scalar functions are expanded
// where they are called, over their bound arguments; tabular functions are analyzed as
// sources (`f(1)`, `T | invoke f()`), each call in the names visible where it was defined.
import type { Arg, Operator } from '../../syntax/ast';
import { type Position, semanticError } from '../../syntax/position';
import type { Analyzer, Env, FunctionBinding, Stage, TabularBinding } from '../analyzer';
import { findColumn } from '../binder';
import type { TExpr } from '../plan';
import { didYouMean } from '../suggest';
import { convert } from '../typed';
import { typeFromName } from './common';

/** A copy of the names in scope, so later let statements do not leak into a definition. */
export function snapshot(env: Env): Env {
  return { scalars: new Map(env.scalars), tables: new Map(env.tables), functions: new Map(env.functions), aliases: new Map(env.aliases) };
}

interface BoundArgument {
  name?: string;
  pos: Position;
  scalar?: TExpr;
  tabular?: TabularBinding;
}

/** Matches arguments to parameters (positionally, then by name) and builds the function's scope. */
function bindParameters(analyzer: Analyzer, fn: FunctionBinding, args: BoundArgument[], pos: Position): Env {
  const env = snapshot(fn.env);
  const byName = new Map<string, BoundArgument>();
  const positional: BoundArgument[] = [];
  for (const arg of args) {
    if (arg.name === undefined) positional.push(arg);
    else byName.set(arg.name, arg);
  }
  if (positional.length > fn.parameters.length) {
    throw semanticError(pos, `${fn.name}() takes ${fn.parameters.length} argument${fn.parameters.length === 1 ? '' : 's'}, found ${positional.length}`);
  }
  for (const name of byName.keys()) {
    if (!fn.parameters.some((parameter) => parameter.name === name)) throw semanticError(byName.get(name)!.pos, `${fn.name}() has no parameter "${name}"`);
  }
  fn.parameters.forEach((parameter, i) => {
    const arg = positional[i] ?? byName.get(parameter.name);
    if (parameter.kind === 'tabular') {
      if (!arg?.tabular) throw semanticError(arg?.pos ?? pos, `${fn.name}(): the parameter ${parameter.name} takes a table`);
      if (parameter.columns) {
        const binding = arg.tabular;
        const stage = binding.kind === 'stage' ? binding.stage : analyzer.withEnv(binding.env, () => analyzer.tabular(binding.tabular));
        for (const column of parameter.columns) {
          if (!findColumn(analyzer.visible(stage), column.name)) throw semanticError(arg.pos, `${fn.name}(): the table given for ${parameter.name} has no field "${column.name}"`);
        }
        env.tables.set(parameter.name, { kind: 'stage', stage });
      } else env.tables.set(parameter.name, arg.tabular);
      return;
    }
    let value = arg?.scalar;
    if (!value) {
      if (arg?.tabular) throw semanticError(arg.pos, `${fn.name}(): the parameter ${parameter.name} takes a scalar value`);
      if (!parameter.default) throw semanticError(pos, `${fn.name}(): missing a value for the parameter ${parameter.name}`);
      value = analyzer.withEnv(fn.env, () => analyzer.binder.bind(parameter.default!, analyzer.scope([])));
    }
    env.scalars.set(parameter.name, convert(value, typeFromName(parameter.type, parameter.pos), arg?.pos ?? pos, `the parameter ${parameter.name} of ${fn.name}()`));
  });
  return env;
}

/** The binder's hook for user-defined scalar functions. */
export function userScalarFunction(analyzer: Analyzer, name: string) {
  const fn = analyzer.env.functions.get(name);
  if (!fn) return undefined;
  return (args: { name?: string; value: TExpr; pos: Position }[], pos: Position): TExpr => {
    const body = fn.body;
    const value = body.value;
    if (value.kind !== 'scalar') throw semanticError(pos, `${name}() returns a table; use it as the source of a query, not inside an expression`);
    const env = bindParameters(analyzer, fn, args.map((arg) => ({ ...(arg.name ? { name: arg.name } : {}), pos: arg.pos, scalar: arg.value })), pos);
    const expanded = analyzer.withEnv(env, () => {
      analyzer.bindLets(body.lets);
      return analyzer.binder.bind(value.expr, analyzer.scope([]));
    });
    // The body stands where the call was written: each call expands it again.
    analyzer.checkExpanded(expanded, pos);
    return expanded;
  };
}

/** Arguments of a tabular function call: names of tables, or scalar expressions. */
function tabularCallArguments(analyzer: Analyzer, fn: FunctionBinding, args: Arg[]): BoundArgument[] {
  return args.map((arg, i) => {
    const parameter = arg.name ? fn.parameters.find((p) => p.name === arg.name) : fn.parameters[i];
    const base = { ...(arg.name ? { name: arg.name } : {}), pos: arg.value.pos };
    if (parameter?.kind === 'tabular') {
      if (arg.value.kind !== 'name') throw semanticError(arg.value.pos, `${fn.name}(): the parameter ${parameter.name} takes the name of a table`);
      const name = arg.value.name;
      return { ...base, tabular: { kind: 'stage', stage: analyzer.named(name, arg.value.pos) } };
    }
    return { ...base, scalar: analyzer.binder.bind(arg.value, analyzer.scope([])) };
  });
}

function runTabular(analyzer: Analyzer, fn: FunctionBinding, env: Env, pos: Position): Stage {
  const body = fn.body;
  if (body.value.kind !== 'tabular') throw semanticError(pos, `${fn.name}() returns a scalar value; use it inside an expression`);
  const tabular = body.value.tabular;
  return analyzer.withEnv(env, () => {
    analyzer.bindLets(body.lets);
    return analyzer.tabular(tabular);
  });
}

/** `f(args)` as a source. */
export function callTabularFunction(analyzer: Analyzer, name: string, args: Arg[], pos: Position): Stage {
  const fn = analyzer.env.functions.get(name);
  if (!fn) throw semanticError(pos, `unknown function "${name}"${didYouMean(name, analyzer.env.functions.keys())}`, { function: name });
  return runTabular(analyzer, fn, bindParameters(analyzer, fn, tabularCallArguments(analyzer, fn, args), pos), pos);
}

/** `T | invoke f(args)`: the input is the function's first (tabular) argument. */
export function invokeFunction(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'invoke' }>): Stage {
  const fn = analyzer.env.functions.get(op.name);
  if (!fn) throw semanticError(op.pos, `unknown function "${op.name}"${didYouMean(op.name, analyzer.env.functions.keys())}`, { function: op.name });
  if (fn.parameters[0]?.kind !== 'tabular') throw semanticError(op.pos, `invoke needs a function whose first parameter is a table, such as (T:(*))`);
  const rest = { ...fn, parameters: fn.parameters.slice(1) };
  const input: BoundArgument = { pos: op.pos, tabular: { kind: 'stage', stage } };
  const args = [input, ...tabularCallArguments(analyzer, rest, op.args)];
  return runTabular(analyzer, fn, bindParameters(analyzer, fn, args, op.pos), op.pos);
}
