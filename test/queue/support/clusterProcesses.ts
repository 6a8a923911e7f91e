/**
 * The processes of a queue-mode n8n (QueueN8n, cluster.ts): each one's environment, start,
 * stop and kill, and what their log lines say (which worker ran an execution, the store calls).
 */
import * as fs from 'fs';
import * as path from 'path';

import { N8n } from '../../../tooling/n8n/n8n';
import { groupAlive, spawnOwned, stopGroup } from '../../../tooling/n8n/processes';
import { queueEnv, type ClusterProcess, type QueueServices } from './queueEnv';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ENQUEUED = /Enqueued execution (\d+) \(job/g;
const WORKER_STARTED = /Worker started execution (\d+) \(job/g;
const STORE_CALL = /wallet-payments store call (\d+) ms/;
// The trigger's own failures: before its answer (not recorded), or after it (answered, not passed on).
const TRIGGER_NOT_RECORDED = /wallet-payments trigger: the event was (?:not recorded|answered 200 and not passed on): (.*)/;

export class ClusterProcesses extends N8n {
	services!: QueueServices;
	database = '';
	prefix = '';
	processes: ClusterProcess[] = [];
	/** Execution id → the worker (name) that ran it, from the workers' logs. */
	readonly ranOn = new Map<string, string>();
	/** Execution ids the main or a webhook processor enqueued, from their logs. */
	readonly enqueued = new Map<string, string>();
	protected maxLifetimeMs = 40 * 60 * 1000;

	get main(): ClusterProcess {
		return this.processes[0];
	}

	/** The first webhook processor. */
	get webhookProcessor(): ClusterProcess {
		return this.webhookProcessors[0];
	}

	get webhookProcessors(): ClusterProcess[] {
		return this.processes.filter((p) => p.role === 'webhook');
	}

	get workers(): ClusterProcess[] {
		return this.processes.filter((p) => p.role === 'worker');
	}

	/** Each webhook processor itself (no proxy in between). */
	get webhookProcessorUrls(): string[] {
		return this.webhookProcessors.map((p) => `http://127.0.0.1:${p.port}`);
	}

	override env(): NodeJS.ProcessEnv {
		return { ...super.env(), ...queueEnv(this.services, this.database, this.prefix) };
	}

	/** One process's environment: its own ports on top of the shared settings. */
	processEnv(proc: ClusterProcess): NodeJS.ProcessEnv {
		const env = { ...this.env(), N8N_RUNNERS_BROKER_PORT: String(proc.brokerPort) };
		if (proc.role === 'worker') {
			return { ...env, QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(proc.port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' };
		}
		return { ...env, N8N_PORT: String(proc.port) };
	}

	protected alive(proc: ClusterProcess): boolean {
		return proc.child !== undefined && proc.child.exitCode === null && proc.child.signalCode === null;
	}

	override get running(): boolean {
		return this.processes.length > 0 && this.alive(this.main);
	}

	/** Every process's recent output. */
	override get log(): string {
		return this.processes.map((p) => `--- ${p.name} ---\n${p.log.slice(-6000)}`).join('\n');
	}

	private readyUrl(proc: ClusterProcess): string {
		return `http://127.0.0.1:${proc.port}/healthz/readiness`;
	}

	/** Starts one process and waits for its readiness endpoint. */
	async startProcess(proc: ClusterProcess, timeoutMs = 180000): Promise<void> {
		if (this.alive(proc)) return;
		const command = proc.role === 'main' ? 'start' : proc.role;
		proc.log = '';
		const child = spawnOwned(`n8n ${command} (${proc.name})`, this.install.nodeBin, [this.install.n8nBin, command], {
			cwd: this.userFolder,
			env: this.processEnv(proc),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		proc.child = child;
		let pending = '';
		const collect = (chunk: Buffer) => {
			const text = chunk.toString();
			proc.log = (proc.log + text).slice(-200000);
			// WALLET_QUEUE_LOG_DIR: every process's whole log, kept after the run, for looking into a failure.
			if (process.env.WALLET_QUEUE_LOG_DIR) fs.appendFileSync(path.join(process.env.WALLET_QUEUE_LOG_DIR, `${proc.name}.log`), text);
			pending += text;
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) this.readLogLine(proc, line);
		};
		child.stdout?.on('data', collect);
		child.stderr?.on('data', collect);
		// Bounded in time whatever happens: stopped by its PID after maxLifetimeMs.
		proc.lifetimeTimer = setTimeout(() => {
			if (child.pid) void stopGroup(child.pid, 2000);
		}, this.maxLifetimeMs);
		proc.lifetimeTimer.unref();
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (!this.alive(proc)) {
				throw new Error(`n8n ${command} (${proc.name}) exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${proc.log.slice(-8000)}`);
			}
			try {
				const response = await fetch(this.readyUrl(proc), { signal: AbortSignal.timeout(2000) });
				await response.arrayBuffer();
				if (response.status === 200) return;
			} catch {
				// not listening yet
			}
			await sleep(300);
		}
		await this.stopProcess(proc);
		throw new Error(`n8n ${command} (${proc.name}) was not ready within ${timeoutMs} ms:\n${proc.log.slice(-8000)}`);
	}

	/**
	 * How long each of the package's store calls took on the workers, from its debug log line
	 * (N8N_LOG_LEVEL=debug): the bound of a call's read-to-write that the claim wait assumes.
	 */
	readonly storeCallMs: number[] = [];

	/** Each trigger run on a worker that failed at its own record: the reason, from the package's warning. */
	readonly triggerNotRecorded: string[] = [];

	private readLogLine(proc: ClusterProcess, line: string): void {
		const storeCall = STORE_CALL.exec(line);
		if (storeCall && proc.role === 'worker') this.storeCallMs.push(Number(storeCall[1]));
		const notRecorded = TRIGGER_NOT_RECORDED.exec(line);
		if (notRecorded && proc.role === 'worker') this.triggerNotRecorded.push(notRecorded[1]);
		const pattern = proc.role === 'worker' ? WORKER_STARTED : ENQUEUED;
		pattern.lastIndex = 0;
		for (const match of line.matchAll(pattern)) {
			if (proc.role === 'worker') this.ranOn.set(match[1], proc.name);
			else this.enqueued.set(match[1], proc.name);
		}
	}

	/** Stops one process (SIGTERM to its group, SIGKILL after the grace time). */
	async stopProcess(proc: ClusterProcess, graceMs = 10000): Promise<void> {
		const child = proc.child;
		if (proc.lifetimeTimer) clearTimeout(proc.lifetimeTimer);
		if (!child?.pid) return;
		await stopGroup(child.pid, graceMs);
	}

	/**
	 * SIGKILL to the worker's n8n process (by its PID), as a crash or an OOM kill would; its task
	 * runner (same process group) is cleaned up afterwards.
	 */
	async killProcess(proc: ClusterProcess): Promise<number> {
		const pid = proc.child?.pid;
		if (!pid) throw new Error(`${proc.name} is not running`);
		process.kill(pid, 'SIGKILL');
		const deadline = Date.now() + 10000;
		while (this.alive(proc) && Date.now() < deadline) await sleep(50);
		if (groupAlive(pid)) await stopGroup(pid, 0);
		if (proc.lifetimeTimer) clearTimeout(proc.lifetimeTimer);
		return pid;
	}
}
