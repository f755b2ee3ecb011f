/**
 * deploy/Dockerfile, run without Docker: the final stage's COPY lines, read from the Dockerfile itself, copy
 * from the build context (the repository filtered by the root .dockerignore) and from the build stage (its
 * production node_modules by `npm ci --omit=dev`, the wasm the repository built with the same npm scripts)
 * into a temporary /app owned by root, as in the image; the real dictionaries are mounted read-only at
 * build/dictionaries; then the image's CMD runs there with its ENV, WORKDIR and USER (node, uid 1000, through
 * setpriv). A file the image does not copy, a folder the service writes that is not node's, or a page that
 * cannot be built there fails here, as it would in the image. The Kubernetes Job that fills the dictionary
 * volume (deploy/k8s/dictionaries-job.yaml) runs its command in the same folder, on the repository's DATA_DIR.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readBlobFile } from '../../engine/blob-file.js';
import { ROOT } from '../helpers/engine.js';

/** the node image's `node` user */
const NODE_UID = 1000;
const APP = '/app';

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword] = line.split(/\s/, 1);
      return { keyword: keyword.toUpperCase(), args: line.slice(keyword.length).trim() };
    });
}

/** `.dockerignore` as Docker reads it: the last pattern that matches a path or one of its folders decides. */
function ignored(text: string): (path: string) => boolean {
  const patterns = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const exclude = !line.startsWith('!');
      const glob = (exclude ? line : line.slice(1)).replace(/^\/+|\/+$/g, '');
      // `**` any run of folders, `*` and `?` within one name
      const source = glob
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*/g, '\0')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')
        .replace(/\0/g, '.*');
      return { exclude, regex: new RegExp(`^${source}$`) };
    });
  return (path) => {
    const prefixes = path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
    let out = false;
    for (const { exclude, regex } of patterns) if (prefixes.some((p) => regex.test(p))) out = exclude;
    return out;
  };
}

/** Copies `source` (a file or a folder's contents) of the build context to `dest`, leaving out what .dockerignore does. */
function copyFromContext(source: string, dest: string, skip: (path: string) => boolean): void {
  const from = join(ROOT, source);
  if (!existsSync(from)) throw new Error(`COPY ${source}: not in the build context`);
  const rel = relative(ROOT, from);
  if (statSync(from).isDirectory()) {
    mkdirSync(dest, { recursive: true });
    for (const entry of readdirSync(from)) {
      if (!skip(`${rel}/${entry}`)) copyFromContext(`${rel}/${entry}`, join(dest, entry), skip);
    }
    return;
  }
  if (skip(rel)) throw new Error(`COPY ${source}: left out of the build context by .dockerignore`);
  mkdirSync(dirname(dest), { recursive: true });
  cpSync(from, dest);
}

const dockerfile = instructions(readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8'));
const stages = dockerfile.reduce<Instruction[][]>((all, ins) => (ins.keyword === 'FROM' ? [...all, [ins]] : (all.at(-1)!.push(ins), all)), []);
const buildStage = stages.find((stage) => /\sAS\s+build$/i.test(stage[0].args)) ?? [];
const finalStage = stages.at(-1)!;
const buildRuns = buildStage.filter((ins) => ins.keyword === 'RUN').map((ins) => ins.args).join('\n');

let dir = '';
let app = '';
let server: ChildProcess | null = null;
let url = '';
let output = '';

/** What the build stage makes at `path`, made here the same way; a path this test does not know fails it. */
function fromBuildStage(path: string, dest: string): void {
  if (path === `${APP}/node_modules`) {
    expect(buildRuns).toMatch(/npm prune --omit=dev|npm ci --omit=dev/);
    const stage = join(dir, 'npm');
    mkdirSync(stage);
    for (const file of ['package.json', 'package-lock.json']) cpSync(join(ROOT, file), join(stage, file));
    // the npm cache makes this a copy of packages already fetched once
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: stage, stdio: 'pipe', timeout: 240_000 });
    renameSync(join(stage, 'node_modules'), dest);
    return;
  }
  const wasm = path.match(/^\/app\/build\/wasm\/(core|xml-scan)\.wasm$/);
  if (wasm) {
    // made by the npm script the build stage runs, as scripts/prepare.ts made the repository's copy
    expect(buildRuns).toContain(wasm[1] === 'core' ? 'asbuild:release' : 'asbuild:xml-scan');
    mkdirSync(dirname(dest), { recursive: true });
    cpSync(join(ROOT, 'build', 'wasm', `${wasm[1]}.wasm`), dest);
    return;
  }
  if (path === `${APP}/build/web`) {
    expect(buildRuns).toContain('mkdir -p build/web');
    mkdirSync(dest, { recursive: true });
    return;
  }
  throw new Error(`COPY --from=build ${path}: this test does not know how the build stage makes it`);
}

/** The final stage's COPY lines carried out into `app`. */
function assemble(): void {
  const skip = ignored(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
  const args = new Map<string, string>();
  let workdir = '';
  for (const { keyword, args: text } of finalStage) {
    if (keyword === 'WORKDIR') workdir = text;
    if (keyword === 'ARG') {
      const [name, value = ''] = text.split('=');
      args.set(name, value);
    }
    if (keyword !== 'COPY') continue;
    const words = text.replace(/\$\{(\w+)\}/g, (_, name: string) => args.get(name) ?? '').split(/\s+/);
    const flags = Object.fromEntries(words.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=')));
    const paths = words.filter((w) => !w.startsWith('--'));
    const target = paths.pop()!;
    const destOf = (source: string) => {
      const absolute = target.startsWith('/') ? target : join(workdir, target);
      const base = target.endsWith('/') || paths.length > 1 ? join(absolute, source.split('/').pop()!) : absolute;
      return join(app, relative(APP, base));
    };
    for (const source of paths) {
      const dest = destOf(source);
      if (flags.from === 'build') fromBuildStage(source, dest);
      else if (flags.from) throw new Error(`COPY --from=${flags.from}: unknown stage`);
      else copyFromContext(source, dest, skip);
      if (flags.chown) {
        expect(flags.chown).toMatch(/^node(:node)?$/);
        execFileSync('chown', ['-R', `${NODE_UID}:${NODE_UID}`, dest]);
      }
    }
  }
  expect(workdir).toBe(APP);
}

/** The image's ENV, its /app paths pointed at the assembled folder. */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of finalStage) {
    if (keyword !== 'ENV') continue;
    for (const [, name, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[name] = value.replace(/^"|"$/g, '').replace(/^\/app(?=\/|$)/, app);
  }
  return env;
}

/** Runs `argv` in the assembled /app as the image's user (uid 1000), with the image's ENV. */
function asImageUser(argv: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn('setpriv', ['--reuid', String(NODE_UID), '--regid', String(NODE_UID), '--clear-groups', '--', ...argv], {
    cwd: app,
    env: { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: join(dir, 'home'), TMPDIR: join(dir, 'tmp'), ...imageEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'image-'));
  chmodSync(dir, 0o755);
  app = join(dir, 'app');
  mkdirSync(app);
  // the image's /tmp and node's home
  mkdirSync(join(dir, 'tmp'), { mode: 0o1777 });
  chmodSync(join(dir, 'tmp'), 0o1777);
  mkdirSync(join(dir, 'home'));
  chownSync(join(dir, 'home'), NODE_UID, NODE_UID);
  assemble();
  // the dictionaries mounted read-only, as `docker run -v …/build/dictionaries:/app/build/dictionaries:ro`
  rmSync(join(app, 'build', 'dictionaries'), { recursive: true, force: true });
  cpSync(join(ROOT, 'build', 'dictionaries'), join(app, 'build', 'dictionaries'), { recursive: true });

  const user = finalStage.filter((ins) => ins.keyword === 'USER').at(-1)?.args;
  expect(user).toBe('node');
  const cmd = JSON.parse(finalStage.filter((ins) => ins.keyword === 'CMD').at(-1)!.args) as string[];
  server = asImageUser([...cmd, '--port', '0']);
  server.stderr!.on('data', (chunk) => (output += chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the image's CMD did not listen within 90 s:\n${output}`)), 90_000);
    server!.once('exit', (code) => reject(new Error(`the image's CMD exited with ${code} before listening:\n${output}`)));
    createInterface({ input: server!.stdout! }).on('line', (line) => {
      output += `${line}\n`;
      if (!line.includes('"listening"')) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url.replace('0.0.0.0', '127.0.0.1'));
    });
  });
}, 360_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server!.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('deploy/Dockerfile, assembled and run as its user', () => {
  it('leaves the app folder root\'s: the service cannot write into it', async () => {
    expect(statSync(app).uid).toBe(0);
    const probe = asImageUser(['node', '-e', "require('fs').writeFileSync('probe', '')"]);
    const code = await new Promise((done) => probe.once('exit', done));
    expect(code).not.toBe(0);
  });

  it('passes its own HEALTHCHECK', async () => {
    const check = finalStage.find((ins) => ins.keyword === 'HEALTHCHECK')!.args.replace(/^.*?\bCMD\s+/, '');
    const probe = asImageUser(['/bin/sh', '-c', check], { PORT: new URL(url).port });
    expect(await new Promise((done) => probe.once('exit', done))).toBe(0);
  });

  it('answers /v1/version with the mounted dictionaries', async () => {
    const reply = await fetch(`${url}/v1/version`);
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { dbVersion: Record<string, { db: string }> };
    for (const country of ['ru', 'kz', 'by', 'ua']) expect(body.dbVersion[country].db).toMatch(new RegExp(`^${country}_\\d{8}$`));
  });

  it('standardizes an address', async () => {
    const reply = await fetch(`${url}/api/v1/clean/address`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' }),
    });
    expect(reply.status, output).toBe(200);
    const body = (await reply.json()) as { houseDetails: { codes: { fias: string } } };
    expect(body.houseDetails.codes.fias).toBe('4abf7720-fa42-482c-a2ec-cd564d9abc96');
  });

  it('builds and serves the page at / with its security headers, and no source map', async () => {
    const page = await fetch(`${url}/`);
    expect(page.status, output).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<script type="module" src="/web/app.js"></script>');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    for (const file of ['app.js', 'core.wasm', 'ru.dict']) expect((await fetch(`${url}/web/${file}`)).status, file).toBe(200);
    expect((await fetch(`${url}/web/app.js.map`)).status).toBe(404);
    expect(readdirSync(join(app, 'build', 'web'))).not.toContain('app.js.map');
  });

  it('builds dictionaries with the command of the Kubernetes Job, as node, into a folder of node\'s', async () => {
    const job = parseAllDocuments(readFileSync(join(ROOT, 'deploy', 'k8s', 'dictionaries-job.yaml'), 'utf8')).map((d) => d.toJS()).find((d) => d.kind === 'Job');
    const command = job.spec.template.spec.containers[0].command as string[];
    const outAt = command.indexOf('--out') + 1;
    const out = join(dir, 'volume');
    mkdirSync(out);
    chownSync(out, NODE_UID, NODE_UID);
    const data = join(ROOT, process.env.DATA_DIR ?? '../shared/data');
    const builder = asImageUser(command.map((word, i) => (i === outAt ? out : word)), { DATA_DIR: data });
    let log = '';
    builder.stdout!.on('data', (chunk) => (log += chunk.toString()));
    builder.stderr!.on('data', (chunk) => (log += chunk.toString()));
    const code = await new Promise((done) => builder.once('exit', done));
    expect(code, log).toBe(0);
    for (const country of ['ru', 'kz', 'by', 'ua']) {
      const blob = readBlobFile(join(out, `${country}.dict`), () => 'skip');
      expect(blob.country).toBe(country);
    }
  }, 300_000);

  it('drains and exits 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((done) => server!.once('exit', (code) => done(code)));
    server!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
