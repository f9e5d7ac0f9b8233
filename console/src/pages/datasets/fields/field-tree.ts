// Fields as a tree: names split on "." into groups (`req.method` under `req`), each node keeping
// the field of its full name when there is one (a name may be a field and a group at once).
import type { DatasetField } from '../../../api/datasets';

export interface FieldNode {
  /** This node's part of the name. */
  part: string;
  /** The full dot-joined name up to this node. */
  path: string;
  field?: DatasetField;
  children: FieldNode[];
}

export function buildFieldTree(fields: readonly DatasetField[]): FieldNode[] {
  const root: FieldNode = { part: '', path: '', children: [] };
  for (const field of fields) {
    let node = root;
    const parts = field.name.split('.');
    parts.forEach((part, index) => {
      const path = parts.slice(0, index + 1).join('.');
      let child = node.children.find((candidate) => candidate.part === part && candidate.path === path);
      if (!child) {
        child = { part, path, children: [] };
        node.children.push(child);
      }
      node = child;
    });
    node.field = field;
  }
  sortTree(root);
  return root.children;
}

function sortTree(node: FieldNode) {
  // System fields (_time, _sysTime) first, then by name.
  node.children.sort((a, b) => Number(!a.part.startsWith('_')) - Number(!b.part.startsWith('_')) || a.part.localeCompare(b.part));
  node.children.forEach(sortTree);
}

/** The kind of quick chart a field's type calls for. */
export type ChartKind = 'numbers' | 'values' | 'time';

export function chartKindOf(field: Pick<DatasetField, 'name' | 'type'>): ChartKind {
  const types = field.type.split('|');
  if (field.name === '_time' || field.name === '_sysTime' || types.includes('datetime')) return 'time';
  if (types.every((type) => type === 'integer' || type === 'float' || type === 'timespan')) return 'numbers';
  return 'values';
}
