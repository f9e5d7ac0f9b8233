import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printSchemaFile } from '../../src/graphql/schema/print';

describe('schema.graphql', () => {
  it('matches the schema built from code (run `npm run schema:print` after changing types)', () => {
    const checkedIn = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(checkedIn).toBe(printSchemaFile());
  });
});
