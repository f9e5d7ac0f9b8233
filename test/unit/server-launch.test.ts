// The server starts with the same node flags wherever it starts: `npm start`, the image, and
// (through scripts/server-launch.mjs itself) the benches and the tests that run it as a process.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-launch.mjs';

const root = new URL('../../', import.meta.url);

describe('how the server is started', () => {
  it('npm start gives node the flags', () => {
    const start = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
    const command = start.split('&&').map((part) => part.trim()).at(-1)!;
    expect(command).toBe(['node', ...SERVER_NODE_FLAGS, 'dist/server/main.mjs'].join(' '));
  });

  it('the image gives node the same flags', () => {
    const cmd = readFileSync(new URL('deploy/Dockerfile', root), 'utf8').match(/^CMD (.+)$/m)?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/server/main.mjs']);
  });
});
