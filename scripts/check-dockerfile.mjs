// Checks deploy/Dockerfile where Docker cannot run: copies the build context (the repository,
// minus what deploy/Dockerfile.dockerignore leaves out) into a clean temporary directory, replays
// the Dockerfile's WORKDIR, COPY, RUN and ENV steps there in order (RUN through `sh -c`), then
// starts the CMD with the ENV values (PORT on a free port, DATA_DIR in a temporary directory),
// waits for /healthz to answer ok and /app/ to serve the console page, and stops it.
// Steps that need root and a Debian image (apt-get) are skipped and listed. Needs the npm registry.
//
//   node scripts/check-dockerfile.mjs [--keep]   (--keep leaves the temporary directory behind)
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dockerfilePath = path.join(root, 'deploy', 'Dockerfile');
const ignorePath = path.join(root, 'deploy', 'Dockerfile.dockerignore');
const keep = process.argv.includes('--keep');
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const log = (message) => console.log(`[check-dockerfile ${elapsed()}] ${message}`);

/** Instructions of a Dockerfile: comments dropped, continuation lines joined. */
function parseDockerfile(text) {
  const instructions = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (!pending && /^\s*(#|$)/.test(line)) continue;
    if (pending && /^\s*#/.test(line)) continue;
    if (/\\\s*$/.test(line)) {
      pending += line.replace(/\\\s*$/, ' ');
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    const match = /^(\w+)\s+(.*)$/s.exec(full);
    if (match) instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim() });
  }
  return instructions;
}

/** .dockerignore patterns (Go filepath.Match with `**`, anchored at the context root, `!` to re-include). */
function parseIgnore(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = path.posix.normalize((negated ? line.slice(1) : line).trim()).replace(/^\/+/, '').replace(/\/+$/, '');
      let source = '';
      for (let i = 0; i < pattern.length; i++) {
        const char = pattern[i];
        if (char === '*' && pattern[i + 1] === '*') {
          source += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
          i += pattern[i + 2] === '/' ? 2 : 1;
        } else if (char === '*') source += '[^/]*';
        else if (char === '?') source += '[^/]';
        else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      return { negated, regex: new RegExp(`^${source}$`) };
    });
}

/** Docker's rule: the last pattern matching the path or one of its parent directories decides. */
function ignored(relative, patterns) {
  let result = false;
  const parts = relative.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  for (const { negated, regex } of patterns) {
    if (prefixes.some((prefix) => regex.test(prefix))) result = !negated;
  }
  return result;
}

function copyContext(source, target, patterns, relative = '') {
  for (const entry of readdirSync(path.join(source, relative), { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (ignored(child, patterns)) continue;
    if (entry.isDirectory()) copyContext(source, target, patterns, child);
    else if (entry.isFile()) {
      mkdirSync(path.dirname(path.join(target, child)), { recursive: true });
      copyFileSync(path.join(source, child), path.join(target, child));
    }
  }
}

function copyInto(from, to) {
  if (lstatSync(from).isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from)) copyInto(path.join(from, name), path.join(to, name));
  } else {
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
}

/** Words of a shell-form or JSON exec-form argument list. */
function words(args) {
  if (args.startsWith('[')) return JSON.parse(args);
  return args.split(/\s+/).filter(Boolean);
}

/** ENV arguments: `KEY=value KEY2="two words"` or the legacy `KEY value`. */
function parseEnv(args) {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [key, ...rest] = args.split(/\s+/);
    return { [key]: rest.join(' ') };
  }
  const result = {};
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g)) {
    result[match[1]] = match[2].replace(/^["']|["']$/g, '');
  }
  return result;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const scratch = mkdtempSync(path.join(tmpdir(), 'eventdeck-dockerfile-'));
const context = path.join(scratch, 'context');
const imageRoot = path.join(scratch, 'image');
const dataDir = path.join(scratch, 'data');
mkdirSync(imageRoot);
mkdirSync(dataDir);
/** A path inside the "image" (absolute container paths live under imageRoot). */
const inImage = (containerPath, workdir) => (path.posix.isAbsolute(containerPath) ? path.join(imageRoot, containerPath) : path.join(workdir, containerPath));

let server;
let failed = false;
const skipped = [];
try {
  const patterns = existsSync(ignorePath) ? parseIgnore(readFileSync(ignorePath, 'utf8')) : [];
  copyContext(root, context, patterns);
  log(`build context copied to ${context}`);

  const env = { ...process.env };
  let workdir = imageRoot;
  let command;
  for (const { keyword, args } of parseDockerfile(readFileSync(dockerfilePath, 'utf8'))) {
    if (keyword === 'FROM' || keyword === 'EXPOSE' || keyword === 'LABEL' || keyword === 'ARG') {
      log(`${keyword} ${args} (not replayed: the host's Node ${process.version} stands in for the base image)`);
    } else if (keyword === 'WORKDIR') {
      workdir = inImage(args, workdir);
      mkdirSync(workdir, { recursive: true });
    } else if (keyword === 'ENV') {
      Object.assign(env, parseEnv(args));
    } else if (keyword === 'COPY') {
      const parts = words(args).filter((word) => !word.startsWith('--'));
      if (words(args).some((word) => word.startsWith('--from'))) throw new Error(`COPY --from is not supported by this check: ${args}`);
      const destination = parts.pop();
      for (const source of parts) {
        const from = path.join(context, source);
        if (!existsSync(from)) throw new Error(`COPY ${source}: not in the build context`);
        const isDirectory = statSync(from).isDirectory();
        const target = inImage(destination, workdir);
        // `COPY dir dest` copies the directory's contents; a file into `dest/` keeps its name.
        copyInto(from, isDirectory || !destination.endsWith('/') ? target : path.join(target, path.basename(source)));
      }
      log(`COPY ${args}`);
    } else if (keyword === 'RUN') {
      if (/\bapt-get\b/.test(args)) {
        skipped.push(args);
        log(`RUN ${args}\n    skipped: apt-get needs root and a Debian image (the host provides the build tools)`);
        continue;
      }
      log(`RUN ${args}`);
      const result = spawnSync('sh', ['-c', args], { cwd: workdir, env, stdio: 'inherit' });
      if (result.status !== 0) throw new Error(`RUN failed with status ${result.status}: ${args}`);
    } else if (keyword === 'CMD') {
      command = words(args);
    } else {
      throw new Error(`instruction ${keyword} is not supported by this check`);
    }
  }
  if (!command) throw new Error('the Dockerfile has no CMD');

  const port = await freePort();
  const runEnv = { ...env, PORT: String(port), DATA_DIR: dataDir };
  log(`CMD ${JSON.stringify(command)} with PORT=${port} DATA_DIR=${dataDir}`);
  server = spawn(command[0], command.slice(1), { cwd: workdir, env: runEnv, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  let exited;
  server.on('exit', (code, signal) => (exited = `exited (${code ?? signal})`));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  let health;
  while (Date.now() < deadline && !exited) {
    health = await fetch(`${base}/healthz`).then((response) => response.json()).catch(() => undefined);
    if (health?.status === 'ok') break;
    await sleep(250);
  }
  if (health?.status !== 'ok') throw new Error(`the server never answered /healthz ok (${exited ?? 'still starting after 120 s'})`);
  log('/healthz answered {"status":"ok"}');
  const page = await fetch(`${base}/app/`);
  const html = await page.text();
  if (page.status !== 200 || !/<meta name="csp-nonce" content="[A-Za-z0-9+/=]+"/.test(html) || !/\/app\/assets\/[^"]+\.js/.test(html)) {
    throw new Error(`/app/ did not serve the console page (status ${page.status}): ${html.slice(0, 200)}`);
  }
  const script = /\/app\/assets\/[^"]+\.js/.exec(html)[0];
  const asset = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'br' } });
  if (asset.status !== 200) throw new Error(`${script} answered ${asset.status}`);
  log(`/app/ served the console page and ${script} (${asset.headers.get('content-encoding') ?? 'identity'})`);
  log(`PASSED${skipped.length ? ` (skipped ${skipped.length} apt-get step${skipped.length > 1 ? 's' : ''})` : ''}`);
} catch (error) {
  failed = true;
  console.error(`[check-dockerfile ${elapsed()}] FAILED: ${error instanceof Error ? error.message : error}`);
} finally {
  if (server && server.exitCode === null) {
    // The CMD runs through npx: stop its whole process group.
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {}
    const stopped = await Promise.race([new Promise((resolve) => server.once('exit', () => resolve(true))), sleep(10_000).then(() => false)]);
    if (!stopped) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {}
    }
  }
  if (keep) log(`kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
