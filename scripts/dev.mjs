#!/usr/bin/env node
/**
 * `npm run dev`: n8n's own `n8n-node dev` (rebuild on every change, n8n reloads the node), with
 * the n8n this project caches.
 *
 * `n8n-node dev` on its own starts `npx n8n@latest`, which needs Node 24 and the latest n8n from
 * the registry. This starts the cached n8n 2.41.1 on Node 24 (scripts/n8n-install.js; installed on
 * first use) instead, and runs `n8n-node dev --external-n8n` for the rest:
 *  1. builds once (n8n-node build) and links this folder into `<user folder>/.n8n/custom`, as
 *     `n8n-node dev` does, so that n8n finds the package when it starts;
 *  2. starts n8n on http://localhost:5678 with N8N_DEV_RELOAD=true, its log in
 *     `<user folder>/n8n-dev.log`;
 *  3. runs `n8n-node dev --external-n8n --custom-user-folder <user folder>` in this terminal
 *     (TypeScript in watch mode; `q` or Ctrl-C quits), then stops n8n.
 * The user folder keeps n8n's data between runs (your owner account, workflows, credentials):
 * DEV_N8N_USER_FOLDER, default ~/.n8n-node-cli (n8n-node dev's own default). DEV_N8N_PORT: 5678.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { ensureInstalled } = require('./n8n-install.js');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const USER_FOLDER = path.resolve(process.env.DEV_N8N_USER_FOLDER ?? path.join(os.homedir(), '.n8n-node-cli'));
const PORT = Number(process.env.DEV_N8N_PORT ?? 5678);
const N8N_NODE = path.join(ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');
const WINDOWS = process.platform === 'win32';

const say = (message) => process.stdout.write(`[dev] ${message}\n`);

const install = await ensureInstalled();

say('building once (n8n-node build)');
const built = spawnSync(process.execPath, [N8N_NODE, 'build'], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

// What `n8n-node dev` links (it links again when it starts; n8n needs the link first).
const link = path.join(USER_FOLDER, '.n8n', 'custom', 'node_modules', PACKAGE.name);
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.rmSync(link, { recursive: true, force: true });
fs.symlinkSync(ROOT, link, WINDOWS ? 'junction' : 'dir');

const logFile = path.join(USER_FOLDER, 'n8n-dev.log');
const log = fs.openSync(logFile, 'a');
say(`starting n8n ${install.installed.n8n} on Node ${install.installed.node} (log: ${logFile})`);
const n8n = spawn(install.nodeBin, [install.n8nBin, 'start'], {
	cwd: USER_FOLDER,
	stdio: ['ignore', log, log],
	detached: !WINDOWS,
	windowsHide: true,
	env: {
		...process.env,
		PATH: `${install.nodeBinDir}${path.delimiter}${process.env.PATH}`,
		N8N_USER_FOLDER: USER_FOLDER,
		N8N_PORT: String(PORT),
		N8N_DEV_RELOAD: 'true',
		DB_SQLITE_POOL_SIZE: '10',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
	},
});

let stopped = false;
function stopN8n() {
	if (stopped || n8n.exitCode !== null) return;
	stopped = true;
	try {
		if (WINDOWS) spawnSync('taskkill', ['/pid', String(n8n.pid), '/T', '/F'], { stdio: 'ignore' });
		else process.kill(-n8n.pid, 'SIGTERM');
	} catch {
		// already gone
	}
}
process.on('exit', stopN8n);
n8n.on('exit', (code, signal) => {
	if (!stopped) {
		process.stderr.write(`\n[dev] n8n stopped (${signal ?? `exit ${code}`}); its log: ${logFile}\n`);
		process.exit(1);
	}
});

const started = Date.now();
for (;;) {
	try {
		const response = await fetch(`http://127.0.0.1:${PORT}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
		if (response.status === 200) break;
	} catch {
		// not listening yet
	}
	if (Date.now() - started > 180000) {
		say(`n8n did not answer within 3 minutes; its log: ${logFile}`);
		process.exit(1);
	}
	await new Promise((resolve) => setTimeout(resolve, 500));
}
say(`n8n is ready on http://localhost:${PORT} (${Math.round((Date.now() - started) / 1000)} s); starting n8n-node dev`);

const dev = spawn(
	process.execPath,
	[N8N_NODE, 'dev', '--external-n8n', '--custom-user-folder', USER_FOLDER, ...process.argv.slice(2)],
	{ cwd: ROOT, stdio: 'inherit' },
);
// Ctrl-C reaches n8n-node dev itself (a key in its terminal UI, or SIGINT to the whole foreground
// group): this waits for it to end. A SIGTERM or SIGHUP sent to this process alone is passed on.
process.on('SIGINT', () => undefined);
for (const signal of ['SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		dev.kill(signal);
	});
}
dev.on('exit', (code, signal) => {
	stopN8n();
	say(`n8n-node dev ended (${signal ?? `exit ${code}`}); n8n stopped`);
	process.exit(code ?? 0);
});
