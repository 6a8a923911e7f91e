/**
 * A real n8n 2.x with this package loaded, in an isolated user folder, driven through its CLI and
 * (when started) its HTTP API. Facts this relies on: ../shared/notes/n8n-e2e.md.
 */
import { type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { N8nCli, type N8nOptions } from './cli';
import { installPackage, registerCommunityPackage } from './communityPackage';
import { fetchJson } from './http';
import { freePorts } from './ports';
import { spawnOwned, stopGroup } from './processes';

export type { N8nOptions } from './cli';
export { packPackage } from './communityPackage';
export * from './names';
export * from './results';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class N8n extends N8nCli {
	private server?: ChildProcess;
	private serverLog = '';
	private cookie?: string;
	private apiKey?: string;

	/** Makes the user folder, picks ports and installs the packed package into `.n8n/nodes`. */
	static async create(options: N8nOptions = {}): Promise<N8n> {
		const parent = options.parentDir ?? process.env.WALLET_E2E_RUN_DIR ?? os.tmpdir();
		fs.mkdirSync(parent, { recursive: true });
		const folder = fs.mkdtempSync(path.join(parent, 'n8n-user-'));
		// `this`: N8n, or the subclass create() was called on.
		const n8n = new this(folder, options);
		if (!fs.existsSync(n8n.install.n8nBin)) {
			throw new Error(`n8n is not installed in ${n8n.install.cache}: run \`node scripts/n8n-install.js\``);
		}
		const [port, brokerPort] = await freePorts(2);
		n8n.port = options.port ?? port;
		n8n.brokerPort = options.brokerPort ?? brokerPort;
		const template = options.template ?? (options.tarball ? undefined : process.env.WALLET_E2E_TEMPLATE);
		if (template) {
			fs.cpSync(path.join(template, '.n8n'), n8n.dataDir, { recursive: true });
			return n8n;
		}
		const tarball = options.tarball ?? process.env.WALLET_E2E_TARBALL;
		if (!tarball) throw new Error('No packed package: WALLET_E2E_TARBALL is not set (jest globalSetup packs it)');
		installPackage(n8n.dataDir, tarball, n8n.baseEnv());
		return n8n;
	}

	/**
	 * A user folder with the package installed and n8n's database migrated (the first n8n
	 * command of a folder spends seconds on migrations); N8n.create copies it.
	 */
	static async prepareTemplate(options: N8nOptions & { tarball: string; encryptionKey: string }): Promise<N8n> {
		const n8n = await N8n.create({ ...options, template: undefined });
		await n8n.cliOk(['list:workflow']);
		n8n.registerCommunityPackage();
		return n8n;
	}

	/**
	 * Records the installed package and its nodes in n8n's database, as n8n does after loading a
	 * package it installed (communityPackage.ts). Needs the database migrated.
	 */
	registerCommunityPackage(): void {
		registerCommunityPackage(this.dataDir, this.install, this.baseEnv());
	}

	// ---- n8n start -------------------------------------------------------------------------

	get running(): boolean {
		return this.server !== undefined && this.server.exitCode === null && this.server.signalCode === null;
	}

	get log(): string {
		return this.serverLog;
	}

	/** `n8n start`; resolves once GET /healthz/readiness answers 200. */
	async start(options: { timeoutMs?: number; onOutput?: (text: string) => void } = {}): Promise<void> {
		if (this.running) return;
		const timeoutMs = options.timeoutMs ?? 120000;
		this.serverLog = '';
		const child = spawnOwned('n8n start', this.install.nodeBin, [this.install.n8nBin, 'start'], {
			cwd: this.userFolder,
			env: this.env(),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		this.server = child;
		const collect = (chunk: Buffer) => {
			const text = chunk.toString();
			this.serverLog = (this.serverLog + text).slice(-200000);
			options.onOutput?.(text);
		};
		child.stdout?.on('data', collect);
		child.stderr?.on('data', collect);
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (!this.running) {
				throw new Error(`n8n start exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${this.serverLog}`);
			}
			const ready = await fetch(`${this.baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2000) }).then(
				(response) => response.status === 200,
				() => false, // not listening yet
			);
			if (ready) {
				// Outside the readiness probe: a failed owner set-up fails the start, not "not ready yet".
				await this.ownerFirst(deadline);
				return;
			}
			await sleep(300);
		}
		await this.stop();
		throw new Error(`n8n start was not ready within ${timeoutMs} ms:\n${this.serverLog}`);
	}

	/**
	 * n8n 1.x, once its main is ready: the owner set up before any run. 1.x is "ready" once its
	 * database is migrated, before its REST routes exist, and a first production run saves the
	 * owner row it read (workflow-statistics.service: userActivated): read before the set-up, it
	 * writes the empty password back, and no log-in works again.
	 */
	protected async ownerFirst(deadline: number): Promise<void> {
		if (this.major >= 2) return;
		for (;;) {
			try {
				const response = await fetch(`${this.baseUrl}/rest/settings`, { signal: AbortSignal.timeout(2000) });
				await response.text();
				if (response.status !== 404) break;
			} catch {
				// routes not up yet
			}
			if (!this.running || Date.now() > deadline) throw new Error(`n8n's REST routes did not come up:\n${this.log}`);
			await sleep(300);
		}
		await this.setUpOwner();
	}

	/** Stops `n8n start` and everything it started (its process group). */
	async stop(): Promise<void> {
		const child = this.server;
		this.server = undefined;
		this.cookie = undefined;
		this.apiKey = undefined;
		if (!child?.pid) return;
		await stopGroup(child.pid, 8000);
	}

	/** Stops the server and removes the user folder (unless WALLET_E2E_KEEP is set). */
	async dispose(): Promise<void> {
		await this.stop();
		if (!process.env.WALLET_E2E_KEEP) fs.rmSync(this.userFolder, { recursive: true, force: true });
	}

	// ---- HTTP: the editor's REST API (session cookie) and the public API (API key) -----------

	/**
	 * n8n 1.x has no owner from the environment: the owner is set up the way the first screen of a
	 * new instance does it (`POST /rest/owner/setup`, open until an owner exists): ownerFirst.
	 */
	private async setUpOwner(): Promise<void> {
		const response = await fetchJson(`${this.baseUrl}/rest/owner/setup`, 'POST', { 'browser-id': 'wallet-e2e' }, {
			email: this.owner.email,
			firstName: this.owner.firstName,
			lastName: this.owner.lastName,
			password: this.owner.password,
		});
		if (response.status !== 200 && !/already/i.test(JSON.stringify(response.body))) {
			throw new Error(`POST /rest/owner/setup → ${response.status}: ${JSON.stringify(response.body)}`);
		}
	}

	/** POST /rest/login as the owner; keeps the session cookie. */
	async login(): Promise<void> {
		const response = await fetch(`${this.baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': 'wallet-e2e' },
			body: JSON.stringify({ emailOrLdapLoginId: this.owner.email, password: this.owner.password }),
		});
		const text = await response.text();
		if (response.status !== 200) throw new Error(`POST /rest/login → ${response.status}: ${text}`);
		const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
		const auth = cookies.find((cookie) => cookie.startsWith('n8n-auth='));
		if (!auth) throw new Error(`POST /rest/login set no n8n-auth cookie (${cookies.join(', ')})`);
		this.cookie = auth;
	}

	/** A call to the editor's REST API with the owner's session. */
	async rest<T = unknown>(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: T }> {
		if (!this.cookie) await this.login();
		return await fetchJson<T>(`${this.baseUrl}/rest${pathname}`, method, { cookie: this.cookie!, 'browser-id': 'wallet-e2e' }, body);
	}

	/** An API key for the public API (POST /rest/api-keys). */
	async publicApiKey(): Promise<string> {
		if (this.apiKey) return this.apiKey;
		const scopesResponse = await this.rest<{ data: string[] }>('GET', '/api-keys/scopes');
		const scopes = scopesResponse.status === 200 && Array.isArray(scopesResponse.body.data) ? scopesResponse.body.data : undefined;
		const created = await this.rest<{ data: { rawApiKey: string } }>('POST', '/api-keys', {
			label: `e2e-${Date.now()}`,
			expiresAt: null,
			...(scopes ? { scopes } : {}),
		});
		if (created.status !== 200 || !created.body.data?.rawApiKey) {
			throw new Error(`POST /rest/api-keys → ${created.status}: ${JSON.stringify(created.body)}`);
		}
		this.apiKey = created.body.data.rawApiKey;
		return this.apiKey;
	}

	/** A call to the public API (/api/v1) with an API key. */
	async publicApi<T = unknown>(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: T }> {
		const key = await this.publicApiKey();
		return await fetchJson<T>(`${this.baseUrl}/api/v1${pathname}`, method, { 'X-N8N-API-KEY': key, accept: 'application/json' }, body);
	}

	/**
	 * Publishes (activates) a workflow of the running n8n through the public API
	 * (`POST /api/v1/workflows/<id>/publish`): a fraction of a second, where
	 * `n8n publish:workflow` costs seconds and needs a restart. Wait for its webhooks with
	 * waitForWebhook.
	 */
	async publishNow(workflowId: string): Promise<void> {
		const action = this.major >= 2 ? 'publish' : 'activate';
		const response = await this.publicApi('POST', `/workflows/${workflowId}/${action}`, {});
		if (response.status !== 200) {
			throw new Error(`POST /api/v1/workflows/${workflowId}/${action} → ${response.status}: ${JSON.stringify(response.body)}`);
		}
	}

	/**
	 * The editor's "Execute workflow" (`POST /rest/workflows/<id>/run`). n8n 2.x runs the saved
	 * workflow; 1.x needs it in the body (`workflowData`), as its editor sends it.
	 */
	async runManually<T = { data?: { executionId?: string } }>(workflowId: string, body: Record<string, unknown>): Promise<{ status: number; body: T }> {
		if (this.major >= 2) return await this.rest<T>('POST', `/workflows/${workflowId}/run`, body);
		const saved = await this.rest<{ data: Record<string, unknown> }>('GET', `/workflows/${workflowId}`);
		if (saved.status !== 200) throw new Error(`GET /rest/workflows/${workflowId} → ${saved.status}: ${JSON.stringify(saved.body)}`);
		return await this.rest<T>('POST', `/workflows/${workflowId}/run`, { workflowData: saved.body.data, ...body });
	}

	/**
	 * Waits until the production webhook `/webhook/<path>` is served. Right after publishing it can
	 * answer 404 for a moment. The probe is a CORS preflight (OPTIONS with an Origin): n8n answers
	 * it 204 once the path is registered, 404 before, and never starts an execution for it. A
	 * connection reset also means "not yet" (seen once right after n8n started, in examples.e2e).
	 */
	async waitForWebhook(webhookPath: string, method = 'POST', timeoutMs = 20000): Promise<void> {
		const url = `${this.baseUrl}/webhook/${webhookPath}`;
		const deadline = Date.now() + timeoutMs;
		let status: number | string = 0;
		while (Date.now() < deadline) {
			const response = await fetch(url, {
				method: 'OPTIONS',
				headers: { origin: 'http://127.0.0.1', 'access-control-request-method': method },
			}).catch((error: unknown) => `no answer (${String((error as Error).cause ?? error)})`);
			if (typeof response === 'string') {
				status = response;
				await sleep(100);
				continue;
			}
			await response.arrayBuffer();
			status = response.status;
			if (status !== 404) {
				if (status >= 200 && status < 300) return;
				throw new Error(`OPTIONS ${url} → ${status}`);
			}
			await sleep(100);
		}
		throw new Error(`The production webhook ${url} still answered ${status} after ${timeoutMs} ms:\n${this.serverLog.slice(-4000)}`);
	}

	/**
	 * waitForWebhook right after publishing: n8n 2.41.1 then answers the CORS preflight for a path
	 * not yet registered with a 500 (its "is not registered" error, uncaught), not a 404; that too
	 * means "not yet".
	 */
	async waitForPublishedWebhook(webhookPath: string, timeoutMs = 20000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			try {
				return await this.waitForWebhook(webhookPath, 'POST', Math.max(0, deadline - Date.now()));
			} catch (error) {
				if (!/→ 500$/.test((error as Error).message) || Date.now() > deadline) throw error;
				await sleep(200);
			}
		}
	}
}
