// docs/reference/configuration.md is rendered from src/config.ts's environment schema: this fails
// while the checked-in page is stale, and checks that what the page says matches what the server
// accepts (every documented default is a value loadConfig takes).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_REFERENCE, readEnvVariables, renderConfigReference } from '../../../scripts/config-reference';
import { loadConfig } from '../../../src/config';

describe('docs/reference/configuration.md', () => {
  it('matches the page rendered from src/config.ts (run `npm run docs:config` after changing a variable)', () => {
    expect(readFileSync(CONFIG_REFERENCE, 'utf8')).toBe(renderConfigReference());
  });

  it('documents every variable of the schema, each with a doc comment', () => {
    const variables = readEnvVariables();
    expect(variables.length).toBeGreaterThan(60);
    for (const name of ['HOST', 'PORT', 'DATABASE_URL', 'EVENT_STORE', 'LIVE_TAIL_MAX_PER_TOKEN', 'DISCORD_API_URL']) {
      expect(variables.map((variable) => variable.name)).toContain(name);
    }
    for (const variable of variables) expect(variable.doc.length, variable.name).toBeGreaterThan(5);
  });

  it('shows defaults the server accepts when given explicitly', () => {
    for (const variable of readEnvVariables()) {
      if (variable.defaultValue === undefined) continue;
      expect(() => loadConfig({ [variable.name]: String(variable.defaultValue) }), variable.name).not.toThrow();
    }
  });

  it('refuses a source whose variable has no doc comment', () => {
    const source = 'const envSchema = z.object({\n  /** Documented. */\n  A: z.string().optional(),\n  B: z.string().optional(),\n});\n';
    expect(() => readEnvVariables(source)).toThrow(/B in src\/config.ts has no doc comment/);
  });
});
