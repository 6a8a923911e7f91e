'use strict';
/** The two install steps: Node 24 (this Node, or the npm package for this machine) and n8n. */
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { NODE_RANGE, N8N_VERSION, OVERRIDES, PEERS, FIRST_RUN, NODE_PACKAGE_FALLBACK, nodePackageFor, nodeBinaryIn, versionFits, systemNodeFits, readJson } = require('./versions');
const { log, fail, nodeVersionOf, setStep, runNpm, headersDir, node24Env } = require('./commands');

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
		// Downloaded by an earlier run that stopped later on: kept.
		const kept = nodeBinaryIn(path.join(p.nodePrefix, 'node_modules', candidate));
		const keptVersion = fs.existsSync(kept) ? nodeVersionOf(kept) : undefined;
		if (keptVersion && versionFits(keptVersion)) {
			log(`Node ${keptVersion}: downloaded by an earlier run, kept (${kept})`);
			return { nodeSource: 'package', nodePackage: candidate, nodeBin: kept, node: keptVersion };
		}
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

/** The host folder's package.json: n8n, the peers its nodes need, and the overrides. */
function hostPackage() {
	return { name: 'n8n-e2e-host', private: true, dependencies: { n8n: N8N_VERSION, ...PEERS }, overrides: OVERRIDES };
}

/**
 * What the npm step does with the host folder as an earlier run left it: `kept` (that run
 * finished it), `finish` (that run began this same install and stopped) or `fresh`.
 */
function npmStep(p) {
	const spec = JSON.stringify(hostPackage());
	const files = hostFiles(p);
	if (JSON.stringify(readJson(files.packageJson)) !== spec) return 'fresh';
	const done = JSON.stringify(readJson(files.record)) === spec;
	return done && fs.existsSync(p.n8nBin) ? 'kept' : 'finish';
}

/** The host's package.json, and the record that its npm install finished (the same content). */
function hostFiles(p) {
	return { packageJson: path.join(p.n8nHost, 'package.json'), record: path.join(p.n8nHost, '.npm-install-done.json') };
}

/**
 * `npm install` of n8n into the host folder, unless an earlier run finished it (its record says
 * so). A run that began the same install and stopped (killed, or a later step failed) is redone
 * from npm's own cache, which keeps every package that run downloaded (--prefer-offline): only
 * the rest is downloaded. A half-written node_modules is never reused: npm would take a package
 * folder with a package.json for whole.
 */
async function npmInstallN8n(p) {
	const spec = hostPackage();
	const files = hostFiles(p);
	const step = npmStep(p);
	if (step === 'kept') {
		log(`n8n: npm install finished in an earlier run: kept (${p.n8nHost})`);
		return;
	}
	const began = step === 'finish';
	setStep(p, `downloading and writing n8n ${N8N_VERSION} (about ${FIRST_RUN.n8nDownloadMB} MB to download, ${FIRST_RUN.n8nDiskGB} GB on disk)`);
	log(
		`n8n: installing n8n@${N8N_VERSION} into ${p.n8nHost}: about ${FIRST_RUN.n8nDownloadMB} MB to download, ` +
			`about ${FIRST_RUN.n8nPackages.toLocaleString('en')} packages, ${FIRST_RUN.n8nDiskGB} GB on disk`,
	);
	if (began) log('n8n: an earlier run began this install and stopped: what it downloaded comes from npm\'s cache, only the rest is downloaded');
	fs.rmSync(p.n8nHost, { recursive: true, force: true });
	fs.mkdirSync(p.n8nHost, { recursive: true });
	fs.writeFileSync(files.packageJson, JSON.stringify(spec, null, 2) + '\n');
	const args = ['install', '--no-audit', '--no-fund', '--legacy-peer-deps', '--ignore-scripts', ...(began ? ['--prefer-offline'] : [])];
	await runNpm(p.nodeBin, args, {
		cwd: p.n8nHost,
		env: node24Env(p),
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
	fs.writeFileSync(files.record, JSON.stringify(spec, null, 2) + '\n');
}

/** sqlite3's native module for Node 24 (npm installed it without building it), unless it loads already. */
async function buildSqlite(p) {
	const loads = () =>
		spawnSync(p.nodeBin, ['-e', "require('sqlite3'); process.stdout.write('ok')"], { cwd: p.n8nHost, encoding: 'utf8' });
	if (loads().stdout === 'ok') return log('n8n: sqlite3 loads under Node 24 (built by an earlier run)');
	setStep(p, 'building sqlite3 for Node 24');
	log('n8n: sqlite3 for Node 24 (a prebuilt binary when it can be downloaded, otherwise compiled: about a minute)');
	await runNpm(p.nodeBin, ['rebuild', 'sqlite3', '--ignore-scripts=false'], {
		cwd: p.n8nHost,
		env: node24Env(p, { npm_config_nodedir: headersDir(p.nodeBin) }),
		progress: () => 'building sqlite3 (compiling C++ when no prebuilt binary can be downloaded)',
	});
	const check = loads();
	if (check.stdout !== 'ok') fail(`sqlite3 does not load under Node 24:\n${check.stderr}`);
}

/** Every node file n8n ships loads, as when n8n starts (nodesLoad.js); fails naming the ones that do not. */
function checkNodesLoad(p) {
	setStep(p, "loading every node file of n8n's");
	const result = nodesLoad(p);
	const counts = result.packages.map((pkg) => `${pkg.name}: ${pkg.total - pkg.failed.length} of ${pkg.total}`).join(', ');
	const failed = result.packages.flatMap((pkg) => pkg.failed.map((f) => `  ${pkg.name}/${f.file}: ${f.message}`));
	if (failed.length > 0) fail(`n8n's own nodes do not all load (${counts}):\n${failed.join('\n')}`);
	log(`n8n: every node file loads (${counts})`);
}

/** Runs nodesLoad.js in the install; its result (the packages, each with its failed files). */
function nodesLoad(p) {
	const ran = spawnSync(p.nodeBin, [path.join(__dirname, 'nodesLoad.js')], {
		cwd: p.n8nHost,
		encoding: 'utf8',
		env: { ...process.env, N8N_DIAGNOSTICS_ENABLED: 'false' },
		timeout: 180000,
		maxBuffer: 64 * 1024 * 1024,
	});
	const last = (ran.stdout || '').trim().split('\n').pop() || '';
	try {
		return JSON.parse(last);
	} catch {
		return fail(`loading n8n's node files did not finish (exit ${ran.status}${ran.signal ? `, ${ran.signal}` : ''}):\n${(ran.stderr || '').slice(-4000)}`);
	}
}

async function installN8n(p) {
	await npmInstallN8n(p);
	await buildSqlite(p);
	checkNodesLoad(p);
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

module.exports = { installNode, installN8n, nodesLoad, npmStep, hostPackage };
