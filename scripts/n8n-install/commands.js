'use strict';
/** Running the install's commands (logged, stoppable) and the lock that lets one install run at a time. */
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { wanted, versionFits, readJson } = require('./versions');

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

/** `node --version` of a binary, or undefined when it does not run. */
function nodeVersionOf(bin) {
	const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30000 });
	return result.status === 0 ? result.stdout.trim() : undefined;
}

function markerMatches(marker, p) {
	if (!marker) return false;
	const want = wanted();
	if (
		Object.keys(want).some((key) => JSON.stringify(marker[key]) !== JSON.stringify(want[key])) ||
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
				log('the previous install was interrupted (its process is gone): taking over and finishing it');
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
		log(`${signal}: stopping; the next run finishes the install (what is done is kept)`);
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

module.exports = { log, duration, fail, nodeVersionOf, markerMatches, setStep, run, runNpm, headersDir, node24Env, withLock };
