/**
 * n8n as its users get it (issue #53): every node file that n8n's node packages list loads in the
 * installed n8n, as when n8n starts. `--legacy-peer-deps` leaves peer dependencies out, and n8n
 * 2.41.1's Extract from File (the CSV and XLSX reader) then failed with `Cannot find module
 * 'date-fns'`: a 500 in the editor for a user who adds a CSV. Runs on both lines (the e2e suite on
 * 2.x, the compat suite on 1.x). One line:
 *
 *   installed-nodes[n8n <version>]: n8n-nodes-base <loaded> of <listed>, ...
 */
import { installPaths, N8N_VERSION, nodesLoad } from '../../tooling/n8n/install';
import { describeE2E } from './support/e2e';

describeE2E(`the installed n8n ${N8N_VERSION}`, () => {
	it("loads every node file of n8n's node packages", () => {
		const loaded = nodesLoad(installPaths());
		process.stdout.write(
			`installed-nodes[n8n ${N8N_VERSION}]: ${loaded.packages.map((p) => `${p.name} ${p.total - p.failed.length} of ${p.total}`).join(', ')}\n`,
		);
		const base = loaded.packages.find((p) => p.name === 'n8n-nodes-base');
		// n8n-nodes-base lists some 440 node files on both lines.
		expect(base?.total).toBeGreaterThan(400);
		expect(loaded.packages.flatMap((p) => p.failed.map((f) => `${p.name}/${f.file}: ${f.message}`))).toEqual([]);
	});
});
