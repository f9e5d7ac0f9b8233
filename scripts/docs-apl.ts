// Writes docs/reference/apl.md, the reference list of supported operators and functions, from
// the engine's tables. test/unit/apl/reference-doc.test.ts fails when the checked-in file differs from this.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderAplReference } from '../src/apl/reference';

const target = fileURLToPath(new URL('../docs/reference/apl.md', import.meta.url));
writeFileSync(target, renderAplReference());
console.log(`wrote ${target}`);
