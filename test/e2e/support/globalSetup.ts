/**
 * jest globalSetup of the e2e suite: installs (or reuses) Node 24 + n8n in the cache, packs the
 * built package once, prepares one n8n user folder every test file copies, and makes the run
 * folder all of this run's files live in. The cold install takes about 4 minutes; it happens
 * here, so no test times out on it.
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { ensureInstalled } from '../../../tooling/n8n/install';
import { N8n, packPackage } from '../../../tooling/n8n/n8n';
import { killRecordedGroups } from '../../../tooling/n8n/processes';

const RUN_PREFIX = 'wallet-e2e-';

function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Run folders of earlier runs that were killed (their jest is gone): end their processes, remove them. */
function cleanStaleRuns(): void {
	for (const name of fs.readdirSync(os.tmpdir())) {
		if (!name.startsWith(RUN_PREFIX)) continue;
		const dir = path.join(os.tmpdir(), name);
		let owner: number;
		try {
			owner = Number(fs.readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
		} catch {
			continue;
		}
		if (!Number.isInteger(owner) || owner <= 1 || pidAlive(owner)) continue;
		const killed = killRecordedGroups(dir);
		fs.rmSync(dir, { recursive: true, force: true });
		process.stderr.write(`[e2e] removed the folder of an interrupted run: ${dir}${killed.length ? ` (ended ${killed.join(', ')})` : ''}\n`);
	}
}

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const install = await ensureInstalled();
	cleanStaleRuns();
	const runDir = fs.mkdtempSync(path.join(os.tmpdir(), RUN_PREFIX));
	fs.writeFileSync(path.join(runDir, 'owner.pid'), String(process.pid));
	// Interrupted (Ctrl-C) runs skip globalTeardown: remove the folder on the way out anyway.
	process.on('exit', () => {
		if (!process.env.WALLET_E2E_KEEP) fs.rmSync(runDir, { recursive: true, force: true });
	});
	const tarball = packPackage(path.join(runDir, 'pack'));
	// Inherited by the test files (same process with --runInBand, or workers spawned later).
	process.env.WALLET_E2E_RUN_DIR = runDir;
	process.env.WALLET_E2E_TARBALL = tarball;
	process.env.WALLET_E2E_ENCRYPTION_KEY = randomBytes(24).toString('hex');
	// One prepared user folder (package installed the way n8n does, database migrated) that
	// every test file copies.
	const template = await N8n.prepareTemplate({
		parentDir: runDir,
		tarball,
		encryptionKey: process.env.WALLET_E2E_ENCRYPTION_KEY,
	});
	process.env.WALLET_E2E_TEMPLATE = template.userFolder;
	process.env.WALLET_E2E = '1';
	process.stderr.write(
		`\n[e2e] n8n ${String(install.installed.n8nInstalled ?? install.installed.n8n)} on Node ${String(install.installed.node)} ` +
			`from ${install.cache}; package ${path.basename(tarball)}; run folder ${runDir} ` +
			`(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
	);
}
