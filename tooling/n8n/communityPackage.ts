/** The package as n8n's Community Nodes installs it: packed, unpacked into a user folder, recorded in n8n's database. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { REPO_ROOT, type InstallPaths } from './install';
import { PACKAGE_NAME } from './names';

/**
 * Run under n8n's Node from n8n's folder (argv: database file, package folder): the rows n8n's
 * InstalledPackagesRepository.persistPackageWithNodes writes for a package it installed. The node
 * types are `<package>.<description.name>`, their names the display names, their versions the
 * latest (currentVersion of a versioned node), as n8n's package loader reads them.
 */
const REGISTER_PACKAGE_SCRIPT = `
const path = require('path');
const sqlite3 = require('sqlite3');
const [database, packageDir] = process.argv.slice(1);
const manifest = require(path.join(packageDir, 'package.json'));
const nodes = (manifest.n8n?.nodes ?? []).map((file) => {
	const exported = require(path.join(packageDir, file));
	const NodeClass = Object.values(exported).find((value) => typeof value === 'function');
	const node = new NodeClass();
	const latest = 'nodeVersions' in node ? node.nodeVersions[node.currentVersion].description : node.description;
	const version = 'nodeVersions' in node ? node.currentVersion : [].concat(node.description.version).pop();
	return { name: latest.displayName ?? node.description.displayName, type: manifest.name + '.' + node.description.name, version };
});
const db = new sqlite3.Database(database);
const now = "STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW')";
db.serialize(() => {
	db.run('BEGIN');
	db.run('DELETE FROM installed_nodes WHERE package = ?', [manifest.name]);
	db.run('DELETE FROM installed_packages WHERE packageName = ?', [manifest.name]);
	db.run(
		'INSERT INTO installed_packages (packageName, installedVersion, authorName, authorEmail, createdAt, updatedAt) VALUES (?, ?, ?, ?, ' + now + ', ' + now + ')',
		[manifest.name, manifest.version, manifest.author?.name ?? null, manifest.author?.email ?? null],
	);
	for (const node of nodes) {
		db.run('INSERT INTO installed_nodes (name, type, latestVersion, package) VALUES (?, ?, ?, ?)', [node.name, node.type, node.version, manifest.name]);
	}
	db.run('COMMIT', (error) => {
		if (error) throw error;
		db.close();
		process.stdout.write(JSON.stringify(nodes));
	});
});
`;

/** Packs the package (dist must be built) into `destDir`; returns the .tgz path. */
export function packPackage(destDir: string): string {
	if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'nodes', 'WalletPayments', 'WalletPayments.node.js'))) {
		throw new Error('dist/ is missing: run `npm run build` first');
	}
	fs.mkdirSync(destDir, { recursive: true });
	const result = spawnSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', destDir], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		timeout: 120000,
	});
	if (result.status !== 0) throw new Error(`npm pack failed:\n${result.stdout}\n${result.stderr}`);
	const name = result.stdout.trim().split('\n').pop()!.trim();
	const tarball = path.join(destDir, name);
	if (!fs.existsSync(tarball)) throw new Error(`npm pack reported ${name} but ${tarball} is missing`);
	return tarball;
}

/**
 * Installs the packed package the way n8n's own installer does when a user installs a community
 * package under Settings → Community Nodes (CommunityPackagesService.downloadPackage in n8n
 * 2.41), from the local tarball instead of the registry: unpack it into
 * `.n8n/nodes/node_modules/<name>`, drop its dev, peer and optional dependencies from its
 * package.json, `npm install` its (zero) dependencies in that folder with n8n's flags, and add it
 * to the `.n8n/nodes/package.json` n8n keeps of installed packages. `registerCommunityPackage()`
 * then records it in n8n's database, as n8n does after loading it.
 */
export function installPackage(dataDir: string, tarball: string, env: NodeJS.ProcessEnv): void {
	const nodesDir = path.join(dataDir, 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	const ledgerFile = path.join(nodesDir, 'package.json');
	fs.mkdirSync(packageDir, { recursive: true });
	if (!fs.existsSync(ledgerFile)) {
		fs.writeFileSync(ledgerFile, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	}
	const run = (command: string, args: string[], cwd: string) => {
		const result = spawnSync(command, args, {
			cwd,
			encoding: 'utf8',
			env,
			timeout: 120000,
			shell: process.platform === 'win32' && command === 'npm',
		});
		if (result.status !== 0) {
			throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${result.stdout}\n${result.stderr}`);
		}
	};
	run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], nodesDir);
	const manifestFile = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
		fs.readFileSync(manifestFile, 'utf8'),
	) as { name: string; version: string; [key: string]: unknown };
	if (manifest.name !== PACKAGE_NAME) throw new Error(`${tarball} holds ${manifest.name}, not ${PACKAGE_NAME}`);
	fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	run(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		packageDir,
	);
	const ledger = JSON.parse(fs.readFileSync(ledgerFile, 'utf8')) as { dependencies?: Record<string, string> };
	ledger.dependencies = { ...ledger.dependencies, [PACKAGE_NAME]: manifest.version };
	fs.writeFileSync(ledgerFile, JSON.stringify(ledger, null, 2));
	if (
		fs.existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow')) ||
		fs.existsSync(path.join(packageDir, 'node_modules', 'n8n-workflow'))
	) {
		throw new Error('n8n-workflow was installed next to the package: it must resolve to n8n’s own copy');
	}
}

/**
 * Records the installed package and its nodes in n8n's database (tables `installed_packages`
 * and `installed_nodes`), with the values n8n's InstalledPackagesRepository writes after it
 * loaded a package it installed: that is what Settings → Community Nodes (`GET
 * /rest/community-packages`) lists. The node classes are loaded under n8n's Node with n8n's own
 * n8n-workflow, as n8n loads them. Needs the database migrated (after any first n8n command).
 */
export function registerCommunityPackage(dataDir: string, install: InstallPaths, env: NodeJS.ProcessEnv): void {
	const packageDir = path.join(dataDir, 'nodes', 'node_modules', PACKAGE_NAME);
	const database = path.join(dataDir, 'database.sqlite');
	if (!fs.existsSync(database)) throw new Error(`No n8n database yet in ${dataDir}: run an n8n command first`);
	const result = spawnSync(install.nodeBin, ['-e', REGISTER_PACKAGE_SCRIPT, database, packageDir], {
		cwd: install.n8nHost,
		encoding: 'utf8',
		env: { ...env, NODE_PATH: install.n8nModules },
		timeout: 60000,
	});
	if (result.status !== 0) {
		throw new Error(`Recording ${PACKAGE_NAME} in n8n's database failed:\n${result.stdout}\n${result.stderr}`);
	}
}
