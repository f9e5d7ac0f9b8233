// The rule for names users give fields that do not come from events (map fields, virtual
// fields): what an ingested field name could be, and not a system field's.
import { invalidInput } from '../errors';
import { MAX_FIELD_NAME_BYTES } from '../ingest/limits';

/**
 * Refuses a name that is empty, over the field name limit, holds a NUL or starts with "_" (which
 * marks system fields); with `dotted`, also one with an empty dot-separated part, which ingest
 * never makes. `kind` names the thing in the message ("map field").
 */
export function validateFieldName(name: string, kind: string, options: { dotted?: boolean } = {}): void {
  const problem =
    name === ''
      ? 'must not be empty'
      : Buffer.byteLength(name) > MAX_FIELD_NAME_BYTES
        ? `must be at most ${MAX_FIELD_NAME_BYTES} bytes`
        : name.includes('\u0000')
          ? 'must not contain a NUL character'
          : name.startsWith('_')
            ? 'must not start with "_", which marks system fields'
            : options.dotted && name.split('.').includes('')
              ? 'must not have an empty part between dots'
              : undefined;
  if (problem) throw invalidInput(`invalid ${kind} name "${name.slice(0, 64)}": it ${problem}`);
}
