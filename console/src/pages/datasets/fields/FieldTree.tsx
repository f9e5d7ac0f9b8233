// The field tree: groups from dot-separated names, each field with its type and flags (hidden,
// map, virtual), unit and description in its title; picking one opens it beside the tree.
import type { DatasetField } from '../../../api/datasets';
import type { FieldNode } from './field-tree';

interface Props {
  nodes: FieldNode[];
  selected: string | undefined;
  onSelect(field: DatasetField): void;
}

export function FieldTree({ nodes, selected, onSelect }: Props) {
  return (
    <nav className="field-tree" aria-label="Fields">
      <TreeLevel nodes={nodes} selected={selected} onSelect={onSelect} />
    </nav>
  );
}

function TreeLevel({ nodes, selected, onSelect }: Props) {
  return (
    <ul>
      {nodes.map((node) => (
        <li key={node.path}>
          {node.field ? <FieldButton node={node} field={node.field} selected={selected === node.field.name} onSelect={onSelect} /> : <span className="group-name">{node.part}</span>}
          {node.children.length > 0 && <TreeLevel nodes={node.children} selected={selected} onSelect={onSelect} />}
        </li>
      ))}
    </ul>
  );
}

function FieldButton({ node, field, selected, onSelect }: { node: FieldNode; field: DatasetField; selected: boolean; onSelect(field: DatasetField): void }) {
  const details = [field.description, field.unit && `unit: ${field.unit}`].filter(Boolean).join(' · ');
  // Read out with its full name (the tree shows only the last part on screen) and what it shows.
  const prefix = field.name.slice(0, field.name.length - node.part.length);
  const flags = [field.hidden && 'hidden', field.mapField && 'map', field.virtual && 'virtual'].filter((flag): flag is string => Boolean(flag));
  const shown = [node.part, ...flags, field.unit, field.type].filter(Boolean).join(' ');
  return (
    <button type="button" className="field-button" aria-current={selected} aria-label={`${prefix}${shown}`} title={details || undefined} onClick={() => onSelect(field)}>
      <span className="field-leaf">{node.part}</span>{' '}
      {flags.map((flag) => (
        <span key={flag} className="field-flag">
          {flag}
        </span>
      ))}{' '}
      {field.unit && <span className="muted">{field.unit}</span>} <span className="field-type">{field.type}</span>
    </button>
  );
}
