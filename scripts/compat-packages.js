#!/usr/bin/env node
/*
 * Ensures n8n-workflow and n8n-core at the versions an n8n 1.x release uses, in a cache folder
 * outside the repository, so that the type-check and the unit suite can also run against the 1.x
 * packages (`npm run typecheck:compat`, `npm run test:unit:compat`; the repository itself is
 * built and tested against the 2.x packages in package.json's devDependencies). Idempotent: a
 * marker file records what was installed; when it is present and matches, nothing is done (and
 * nothing is asked of the registry). A half-finished install is wiped and redone. Progress goes to
 * stderr; the folder is printed on stdout.
 *
 *   node scripts/compat-packages.js            # install or reuse; prints the cache folder
 *   node scripts/compat-packages.js --force    # wipe and reinstall
 *
 * The versions are read from the registry (`npm view n8n@<version> dependencies --json`): for
 * n8n 1.123.81 they are n8n-workflow 1.120.31 and n8n-core 1.122.48. n8n-core brings its own
 * @n8n/di, @n8n/backend-common and @n8n/config (1.x-era versions); the tests import the first two
 * (n8n-core's Container and Logger), so they are taken from here too (MAPPED).
 *
 * The first run installs about 400 packages (n8n-core pulls the AWS S3 client, LangChain's core
 * and Sentry), 240 MB on disk, in about 70 s (measured on a 2-core machine, 2026-11-26); later
 * runs only read the marker. `--ignore-scripts --legacy-peer-deps`, as for n8n itself
 * (scripts/n8n-install.js): nothing needs building, as nothing here runs n8n.
 *
 * Environment:
 *   N8N_COMPAT_N8N_VERSION  the n8n release whose packages are used (default 1.123.81)
 *   N8N_COMPAT_CACHE        cache folder (default
 *                           ${XDG_CACHE_HOME:-~/.cache}/n8n-wallet-payments-compat-<n8n version>)
 *   N8N_COMPAT_VERBOSE      1 = npm's own output during the install
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

// The same cross-process lock as the n8n install (a directory holding its owner's PID). Required
// when first used, not here: n8n-install.js reads N8N_E2E_N8N_VERSION once, when it is loaded, and
// the jest configs that run n8n 1.x load this file for DEFAULT_N8N_VERSION before they set it.
// Loaded here, the install took 2.41.1 and the 1.x suites found no n8n on a machine without the
// 1.x cache (CI in a fresh machine, 2026-11-27).
const withLock = (...args) => require('./n8n-install.js').withLock(...args);

const DEFAULT_N8N_VERSION = '1.123.81';
const N8N_VERSION = process.env.N8N_COMPAT_N8N_VERSION || DEFAULT_N8N_VERSION;
/** What is installed: the versions n8n's own package.json names. */
const PACKAGES = ['n8n-workflow', 'n8n-core'];
/**
 * What the compat type-check and unit suite take from the cache instead of the repository's
 * node_modules: the two packages, and the ones of n8n-core's that the tests import themselves
 * (one Container and one Logger class for n8n-core and the tests).
 */
const MAPPED = ['n8n-workflow', 'n8n-core', '@n8n/di', '@n8n/backend-common'];
const MARKER_FORMAT = 1;

function cacheDir() {
	if (process.env.N8N_COMPAT_CACHE) return path.resolve(process.env.N8N_COMPAT_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, `n8n-wallet-payments-compat-${N8N_VERSION}`);
}

function paths(cache = cacheDir()) {
	return {
		cache,
		marker: path.join(cache, 'install.json'),
		lock: path.join(cache, '.install.lock'),
		modules: path.join(cache, 'node_modules'),
	};
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

const started = Date.now();
function log(message) {
	const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
	process.stderr.write(`[compat-packages ${seconds}s] ${message}\n`);
}

function fail(message) {
	throw new Error(`compat-packages: ${message}`);
}

/** The installed version of a package in the cache, or undefined. */
function installedVersion(p, name) {
	const manifest = readJson(path.join(p.modules, ...name.split('/'), 'package.json'));
	return manifest && manifest.version;
}

/** Whether the marker is for this n8n and every package it names is there at its version. */
function markerMatches(marker, p) {
	if (!marker || marker.format !== MARKER_FORMAT || marker.n8n !== N8N_VERSION || !marker.packages) return false;
	return PACKAGES.every((name) => marker.packages[name] && installedVersion(p, name) === marker.packages[name]);
}

/**
 * Runs npm (npm's own script under this Node when npm started us, else `npm` on PATH), keeping
 * its output; resolves to stdout, rejects with the output on a non-zero exit.
 */
function runNpm(args, options = {}) {
	const execPath = process.env.npm_execpath;
	const viaScript = execPath && /^npm-cli\.[cm]?js$/.test(path.basename(execPath));
	const command = viaScript ? process.execPath : process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const fullArgs = viaScript ? [execPath, ...args] : args;
	return new Promise((resolve, reject) => {
		if (!options.quiet) log(`$ npm ${args.join(' ')}${options.cwd ? `   (in ${options.cwd})` : ''}`);
		const child = spawn(command, fullArgs, {
			cwd: options.cwd,
			env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
			stdio: ['ignore', 'pipe', 'pipe'],
			shell: !viaScript && process.platform === 'win32',
			windowsHide: true,
		});
		let stdout = '';
		let tail = '';
		child.stdout.on('data', (chunk) => {
			stdout += chunk;
			tail = (tail + chunk).slice(-8000);
			if (process.env.N8N_COMPAT_VERBOSE) process.stderr.write(chunk);
		});
		child.stderr.on('data', (chunk) => {
			tail = (tail + chunk).slice(-8000);
			if (process.env.N8N_COMPAT_VERBOSE) process.stderr.write(chunk);
		});
		const heartbeat = setInterval(() => log(`  … still running npm ${args[0]}`), 20000);
		child.on('error', (error) => {
			clearInterval(heartbeat);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearInterval(heartbeat);
			if (code === 0) return resolve(stdout);
			process.stderr.write(`${tail}\n`);
			reject(new Error(`compat-packages: \`npm ${args.join(' ')}\` failed (${signal ? `signal ${signal}` : `exit ${code}`})`));
		});
	});
}

/** The versions of PACKAGES that n8n N8N_VERSION depends on, from the registry. */
async function versionsFromRegistry() {
	const out = await runNpm(['view', `n8n@${N8N_VERSION}`, 'dependencies', '--json']);
	let dependencies;
	try {
		dependencies = JSON.parse(out);
	} catch {
		fail(`\`npm view n8n@${N8N_VERSION} dependencies --json\` gave no JSON:\n${out}`);
	}
	const versions = {};
	for (const name of PACKAGES) {
		const version = dependencies && dependencies[name];
		if (!/^\d+\.\d+\.\d+$/.test(version || '')) fail(`n8n@${N8N_VERSION} names no exact ${name} version (${version})`);
		versions[name] = version;
	}
	return versions;
}

/** Installs what is missing; resolves to the paths and the marker of a complete install. */
async function ensureInstalled(options = {}) {
	const p = paths();
	if (!options.force && markerMatches(readJson(p.marker), p)) return { ...p, installed: readJson(p.marker) };
	return withLock(p, async () => {
		// Another run may have finished while we waited for the lock.
		const now = readJson(p.marker);
		if (!options.force && markerMatches(now, p)) return { ...p, installed: now };
		const t0 = Date.now();
		const versions = await versionsFromRegistry();
		const list = PACKAGES.map((name) => `${name} ${versions[name]}`).join(', ');
		log(`installing ${list} (what n8n ${N8N_VERSION} uses) into ${p.cache}: about 400 packages, 240 MB, a minute or so`);
		fs.rmSync(p.marker, { force: true });
		fs.rmSync(p.modules, { recursive: true, force: true });
		fs.rmSync(path.join(p.cache, 'package-lock.json'), { force: true });
		fs.writeFileSync(
			path.join(p.cache, 'package.json'),
			JSON.stringify({ name: 'n8n-wallet-payments-compat', private: true, dependencies: versions }, null, 2) + '\n',
		);
		await runNpm(['install', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps'], { cwd: p.cache });
		for (const name of PACKAGES) {
			const got = installedVersion(p, name);
			if (got !== versions[name]) fail(`${name}: expected ${versions[name]} in ${p.modules}, found ${got}`);
		}
		const marker = {
			format: MARKER_FORMAT,
			n8n: N8N_VERSION,
			packages: versions,
			mapped: Object.fromEntries(MAPPED.map((name) => [name, installedVersion(p, name)])),
			completedAt: new Date().toISOString(),
			seconds: Math.round((Date.now() - t0) / 1000),
		};
		const tmp = `${p.marker}.${process.pid}.tmp`;
		fs.writeFileSync(tmp, JSON.stringify(marker, null, 2) + '\n');
		fs.renameSync(tmp, p.marker);
		log(`ready in ${marker.seconds} s (marker ${p.marker})`);
		return { ...p, installed: marker };
	});
}

/** The folder of each MAPPED package in the cache (all of them must be there). */
function mappedDirs(p = paths()) {
	return Object.fromEntries(
		MAPPED.map((name) => {
			const dir = path.join(p.modules, ...name.split('/'));
			if (!fs.existsSync(path.join(dir, 'package.json'))) fail(`${name} is missing from ${p.modules}: run with --force`);
			return [name, dir];
		}),
	);
}

/*
 * Only the bare names are mapped: what nodes/, credentials/ and test/ import (n8n-workflow's
 * subpaths go through its package "exports", which a path mapping would bypass). Inside the cache
 * the packages find each other by Node's own resolution, so n8n-core 1.x always gets the
 * n8n-workflow 1.x next to it.
 */

/** Jest's moduleNameMapper: each MAPPED package from the cache (the file Node would load). */
function jestModuleNameMapper(p = paths()) {
	const mapper = {};
	for (const name of Object.keys(mappedDirs(p))) {
		const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		mapper[`^${escaped}$`] = require.resolve(name, { paths: [p.cache] });
	}
	return mapper;
}

/** TypeScript's compilerOptions.paths: each MAPPED package from the cache. */
function tsconfigPaths(p = paths()) {
	return Object.fromEntries(Object.entries(mappedDirs(p)).map(([name, dir]) => [name, [dir]]));
}

module.exports = {
	ensureInstalled,
	paths,
	cacheDir,
	jestModuleNameMapper,
	tsconfigPaths,
	DEFAULT_N8N_VERSION,
	N8N_VERSION,
	PACKAGES,
	MAPPED,
};

if (require.main === module) {
	ensureInstalled({ force: process.argv.includes('--force') }).then(
		(result) => process.stdout.write(`${result.cache}\n`),
		(error) => {
			process.stderr.write(`\n${error.stack || error}\n\ncompat packages install FAILED\n`);
			process.exit(1);
		},
	);
}
