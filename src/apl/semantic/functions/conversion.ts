// Conversion functions: to<type>() and the type-named spellings (int(), real(), ...),
// todynamic/parse_json, toarray, tohex, dynamic_to_json and ensure_field. A value that does
// not convert gives null for its row, never an error for the query.
import type { AplType } from '../plan';
import { call, constantString, intLiteral, nullOf } from '../typed';
import type { ScalarFamily, ScalarRule } from './rule';
import { PARSE_TYPES } from '../type-names';

const conversion =
  (to: AplType): ScalarRule =>
  (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === to) return arg;
    if (arg.type === 'null') return nullOf(to);
    if (to === 'datetime' && (arg.type === 'bool' || arg.type === 'timespan')) return nullOf(to);
    return call('convert', [arg], to);
  };

export const CONVERSION_FUNCTIONS: ScalarFamily = {
  tostring: conversion('string'),
  toint: conversion('int'),
  tolong: conversion('int'),
  toreal: conversion('real'),
  todouble: conversion('real'),
  todecimal: conversion('real'),
  tobool: conversion('bool'),
  toboolean: conversion('bool'),
  todatetime: conversion('datetime'),
  totimespan: conversion('timespan'),
  // An invalid JSON text is null for todynamic and stays the text for parse_json.
  todynamic: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'string') return call('json_parse_or_null', [arg], 'dynamic');
    return conversion('dynamic')(site);
  },
  toobject: (site) => CONVERSION_FUNCTIONS.todynamic!(site),
  parse_json: conversion('dynamic'),
  int: conversion('int'),
  long: conversion('int'),
  real: conversion('real'),
  double: conversion('real'),
  bool: conversion('bool'),
  boolean: conversion('bool'),
  string: conversion('string'),
  toarray: (site) => {
    site.arity(1);
    return call('toarray', [site.arg(0, 'dynamic')], 'dynamic');
  },
  tohex: (site) => {
    site.arity(1, 2);
    return call('tohex', [site.arg(0, 'int'), site.count > 1 ? site.arg(1, 'int') : intLiteral(0)], 'string');
  },
  dynamic_to_json: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type !== 'dynamic') return conversion('string')(site);
    return call('json_canonical', [arg], 'string');
  },
  ensure_field: (site) => {
    site.arity(2);
    const name = site.constString(0);
    const typeName = constantString(site.raw(1));
    const type = typeName === undefined ? undefined : PARSE_TYPES[typeName];
    if (!type) throw site.error('expects a type such as typeof(string)', 1);
    const field = site.row.field(name);
    if (!field) return nullOf(type);
    return field.type === type ? field : field.type === 'null' ? nullOf(type) : call('convert', [field], type);
  },
};
