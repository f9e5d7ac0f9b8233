// Conversion functions: to<type>() and the type-named spellings (int(), real(), ...), parse_json.
import type { AplType } from '../plan';
import { call, constantString, nullOf } from '../typed';
import type { ScalarFamily, ScalarRule } from './rule';

const conversion =
  (to: AplType): ScalarRule =>
  (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === to) return arg;
    if (arg.type === 'null') return nullOf(to);
    if (to === 'datetime' && (arg.type === 'int' || arg.type === 'real' || arg.type === 'bool' || arg.type === 'timespan')) return nullOf(to);
    return call('convert', [arg], to);
  };

export const CONVERSION_FUNCTIONS: ScalarFamily = {
  tostring: conversion('string'),
  toint: conversion('int'),
  tolong: conversion('int'),
  toreal: conversion('real'),
  todouble: conversion('real'),
  tobool: conversion('bool'),
  toboolean: conversion('bool'),
  todatetime: conversion('datetime'),
  totimespan: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    const text = constantString(arg);
    if (text !== undefined) return conversion('timespan')(site);
    if (arg.type === 'int' || arg.type === 'real') return call('convert', [arg], 'timespan');
    return conversion('timespan')(site);
  },
  todynamic: conversion('dynamic'),
  parse_json: conversion('dynamic'),
  int: conversion('int'),
  long: conversion('int'),
  real: conversion('real'),
  double: conversion('real'),
  bool: conversion('bool'),
  boolean: conversion('bool'),
  string: conversion('string'),
};
