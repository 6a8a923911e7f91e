/**
 * The package installed the way a user installs it (Settings → Community Nodes; n8n's own
 * installer steps from the packed tarball, see N8n.installPackage) is what n8n lists as an
 * installed community package, with both nodes loaded, and its node types are served to the
 * editor.
 */
import * as fs from 'fs';
import * as path from 'path';

import { describeE2E } from './support/e2e';
import { REPO_ROOT } from '../../tooling/n8n/install';
import { N8n, PACKAGE_NAME, WALLET_NODE_TYPE, WALLET_TRIGGER_TYPE } from '../../tooling/n8n/n8n';

interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	authorName?: string;
	failedLoading?: boolean;
	installedNodes: Array<{ name: string; type: string; latestVersion: number }>;
}

describeE2E('installed as a community package', () => {
	let n8n: N8n | undefined;
	const { version, author } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
		version: string;
		author: { name: string };
	};

	beforeAll(async () => {
		n8n = await N8n.create();
		await n8n.start();
	});

	afterAll(async () => {
		await n8n?.dispose();
	});

	it('is listed under Settings → Community Nodes with both nodes loaded', async () => {
		const { status, body } = await n8n!.rest<{ data: InstalledPackage[] }>('GET', '/community-packages');
		expect(status).toBe(200);
		expect(body.data).toHaveLength(1);
		const [installed] = body.data;
		expect(installed).toMatchObject({
			packageName: PACKAGE_NAME,
			installedVersion: version,
			authorName: author.name,
			failedLoading: false,
		});
		// Name, type and latest version as the built node classes declare them.
		const declared = (file: string) => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = require(path.join(REPO_ROOT, 'dist', 'nodes', file)) as Record<string, new () => {
				description: { displayName: string; version: number | number[] };
			}>;
			const { description } = new (Object.values(exported)[0])();
			return { name: description.displayName, latestVersion: [description.version].flat().pop() };
		};
		expect(installed.installedNodes).toHaveLength(2);
		expect(installed.installedNodes).toEqual(
			expect.arrayContaining([
				{ ...declared('WalletPayments/WalletPayments.node.js'), type: WALLET_NODE_TYPE },
				{ ...declared('WalletPaymentsTrigger/WalletPaymentsTrigger.node.js'), type: WALLET_TRIGGER_TYPE },
			]),
		);
	});

	it('keeps the record n8n keeps of installed packages, without n8n-workflow beside it', () => {
		const nodesDir = path.join(n8n!.dataDir, 'nodes');
		const ledger = JSON.parse(fs.readFileSync(path.join(nodesDir, 'package.json'), 'utf8')) as {
			dependencies: Record<string, string>;
		};
		expect(ledger.dependencies).toEqual({ [PACKAGE_NAME]: version });
		const manifest = JSON.parse(
			fs.readFileSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8'),
		) as Record<string, unknown>;
		// n8n's installer drops these before `npm install`: n8n-workflow resolves to n8n's own copy.
		expect(manifest).not.toHaveProperty('peerDependencies');
		expect(manifest).not.toHaveProperty('devDependencies');
		expect(fs.existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow'))).toBe(false);
	});
});
