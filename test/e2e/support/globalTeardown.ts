/**
 * jest globalTeardown of the e2e suite: no process may outlive the run, and the run folder goes.
 * Two checks: the PID files of the process groups the suite started, and every process whose
 * working directory is inside the run folder (n8n, its task runners, npm), like `pgrep` would.
 */
import * as fs from 'fs';
import * as path from 'path';

import { killRecordedGroups } from '../../../tooling/n8n/processes';

/** Processes whose current directory is inside `dir` (Linux /proc; elsewhere none are found). */
export function processesInside(dir: string): Array<{ pid: number; args: string }> {
	const found: Array<{ pid: number; args: string }> = [];
	let entries: string[] = [];
	try {
		entries = fs.readdirSync('/proc');
	} catch {
		return found;
	}
	const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
	for (const entry of entries) {
		const pid = Number(entry);
		if (!Number.isInteger(pid) || pid === process.pid) continue;
		try {
			const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
			if (cwd === dir || cwd.startsWith(prefix)) {
				const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
				found.push({ pid, args });
			}
		} catch {
			// gone, or not ours to read
		}
	}
	return found;
}

export default async function globalTeardown(): Promise<void> {
	const runDir = process.env.WALLET_E2E_RUN_DIR;
	if (!runDir) return;
	const killed = killRecordedGroups(runDir);
	const stray = processesInside(runDir);
	for (const { pid } of stray) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
	if (process.env.WALLET_E2E_KEEP) {
		process.stderr.write(`[e2e] kept the run folder ${runDir}\n`);
	} else {
		fs.rmSync(runDir, { recursive: true, force: true });
	}
	const leftovers = [...killed, ...stray.map(({ pid, args }) => `${pid} ${args}`)];
	if (leftovers.length > 0) {
		// A test left a process running: that is a bug in the suite; fail the run loudly.
		throw new Error(`e2e: processes were still running at the end and were killed:\n${leftovers.join('\n')}`);
	}
	process.stderr.write('[e2e] no n8n, task runner or npm process left behind\n');
}
