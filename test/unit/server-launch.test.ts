// The server starts the same way wherever it starts: `npm start`, the image, and (through
// scripts/server-launch.mjs itself) the benches and the tests that run it as a process.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-launch.mjs';

const root = new URL('../../', import.meta.url);

describe('how the server is started', () => {
  it('npm start sets the environment and the node flags', () => {
    const start = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
    const command = start.split('&&').map((part) => part.trim()).at(-1)!;
    const assignments = Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);
    expect(command).toBe([...assignments, 'node', ...SERVER_NODE_FLAGS, 'dist/server/main.mjs'].join(' '));
  });

  it('the image sets the same environment and node flags', () => {
    const dockerfile = readFileSync(new URL('deploy/Dockerfile', root), 'utf8');
    const cmd = dockerfile.match(/^CMD (.+)$/m)?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/server/main.mjs']);
    const env = new Map(
      [...dockerfile.matchAll(/^ENV (.+)$/gm)].flatMap((line) => line[1]!.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
    );
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(env.get(name), name).toBe(value);
  });
});
