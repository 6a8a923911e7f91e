/**
 * Child processes that must never outlive the test run.
 *
 * Every long-lived child is started in its own process group (detached) so that it and all its
 * children (n8n's task runners) can be stopped together. Three layers make sure they go:
 *  1. the code that started it stops it (afterAll / finally);
 *  2. this process kills every group it still owns on exit, SIGINT and SIGTERM;
 *  3. a tiny reaper (`sh`, its own group) polls this process and kills the group once this
 *     process is gone, even after a SIGKILL; and a PID file in the run folder lets the jest
 *     globalTeardown (or the next run) find stragglers.
 * Windows has no process groups or `sh`: there a "group" is the process tree of the child
 * (`taskkill /T`), and layers 1 and 2 remain.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const owned = new Map<number, { label: string; pidFile?: string; reaper?: ChildProcess }>();
let handlersInstalled = false;
let signalsHandledElsewhere = false;

/**
 * For a program that stops its children itself on SIGINT/SIGTERM (the demo): this module then
 * does not exit on those signals. Without it (jest), a signal ends every owned group and exits.
 */
export function handleSignalsElsewhere(): void {
	signalsHandledElsewhere = true;
}

function pidDir(): string | undefined {
	const runDir = process.env.WALLET_E2E_RUN_DIR;
	if (!runDir) return undefined;
	const dir = path.join(runDir, 'pids');
	fs.mkdirSync(dir, { recursive: true });
	return dir;
}

const WINDOWS = process.platform === 'win32';

export function groupAlive(pgid: number): boolean {
	try {
		process.kill(WINDOWS ? pgid : -pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
	if (WINDOWS) {
		// The process and everything it started; Windows has no gentler equivalent of SIGTERM here.
		spawnSync('taskkill', ['/pid', String(pgid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
		return;
	}
	try {
		process.kill(-pgid, signal);
	} catch {
		// already gone
	}
}

function killAllOwnedSync(): void {
	for (const [pgid, entry] of owned) {
		killGroup(pgid, 'SIGKILL');
		if (entry.pidFile) fs.rmSync(entry.pidFile, { force: true });
	}
	owned.clear();
}

function installHandlers(): void {
	if (handlersInstalled) return;
	handlersInstalled = true;
	process.on('exit', killAllOwnedSync);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			// The demo stops gracefully on its own; the 'exit' handler and the reapers still end
			// whatever is left.
			if (signalsHandledElsewhere) return;
			killAllOwnedSync();
			process.exit(130);
		});
	}
}

/** Starts a command in a new process group that this process owns. */
export function spawnOwned(label: string, command: string, args: string[], options: SpawnOptions): ChildProcess {
	installHandlers();
	const child = spawn(command, args, { ...options, detached: !WINDOWS, windowsHide: true });
	const pgid = child.pid;
	if (pgid === undefined) return child; // spawn failed: the 'error' event tells the caller
	const dir = pidDir();
	const pidFile = dir ? path.join(dir, String(pgid)) : undefined;
	if (pidFile) fs.writeFileSync(pidFile, `${label}\n`);
	// The reaper: once this process is gone, end the group (SIGTERM, then SIGKILL). POSIX only.
	const reaper = WINDOWS
		? undefined
		: spawn(
			'sh',
			[
				'-c',
				'while kill -0 "$1" 2>/dev/null && kill -0 -"$2" 2>/dev/null; do sleep 1; done; ' +
					'kill -TERM -"$2" 2>/dev/null; sleep 3; kill -KILL -"$2" 2>/dev/null; ' +
					'[ -n "$3" ] && rm -f "$3"; exit 0',
				'reaper',
				String(process.pid),
				String(pgid),
				pidFile ?? '',
			],
			{ detached: true, stdio: 'ignore' },
			);
	reaper?.unref();
	owned.set(pgid, { label, pidFile, reaper });
	child.once('exit', () => {
		// The leader is gone; its group may still have members (stopGroup handles those).
		if (!groupAlive(pgid)) release(pgid);
	});
	return child;
}

function release(pgid: number): void {
	const entry = owned.get(pgid);
	if (!entry) return;
	owned.delete(pgid);
	if (entry.pidFile) fs.rmSync(entry.pidFile, { force: true });
	if (entry.reaper?.pid && entry.reaper.exitCode === null) {
		try {
			process.kill(-entry.reaper.pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Stops a group: SIGTERM, wait up to graceMs, then SIGKILL; resolves when it is gone. */
export async function stopGroup(pgid: number, graceMs = 5000): Promise<void> {
	killGroup(pgid, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
	if (groupAlive(pgid)) {
		killGroup(pgid, 'SIGKILL');
		const hard = Date.now() + 5000;
		while (groupAlive(pgid) && Date.now() < hard) await sleep(50);
	}
	release(pgid);
}

/** Kills the groups listed in a run folder's PID files (globalTeardown, or a crashed earlier run). */
export function killRecordedGroups(runDir: string): string[] {
	const dir = path.join(runDir, 'pids');
	const killed: string[] = [];
	if (!fs.existsSync(dir)) return killed;
	for (const name of fs.readdirSync(dir)) {
		const pgid = Number(name);
		if (!Number.isInteger(pgid) || pgid <= 1) continue;
		if (groupAlive(pgid)) {
			killGroup(pgid, 'SIGKILL');
			killed.push(`${pgid} ${fs.readFileSync(path.join(dir, name), 'utf8').trim()}`);
		}
		fs.rmSync(path.join(dir, name), { force: true });
	}
	return killed;
}
