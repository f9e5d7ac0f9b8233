// Writes schema.graphql from the code-first Pothos schema. test/unit/graphql-schema.test.ts fails
// when the checked-in file differs from what this prints.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchemaFile } from '../src/graphql/schema/print';

const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
writeFileSync(target, printSchemaFile());
console.log(`wrote ${target}`);
