/**
 * An n8n user folder driven through n8n's CLI: its environment, its commands, imports and
 * executions. N8n (n8n.ts) adds the server and its HTTP API.
 */
import { spawnSync } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { baseEnv } from './environment';
import { installPaths, type InstallPaths } from './install';
import { CREDENTIAL_ID, CREDENTIAL_NAME, CREDENTIAL_TYPE, DEFAULT_OWNER, type Owner, type WalletCredentialData } from './names';
import { groupAlive, spawnOwned, stopGroup } from './processes';
import { extractExecutionJson, type CliResult, type ExecutionResult, type WorkflowJson } from './results';

export interface N8nOptions {
	/** Parent folder; a fresh folder is made inside it (default: the run folder, or os.tmpdir()). */
	parentDir?: string;
	/** Extra environment for every n8n command. */
	env?: Record<string, string>;
	owner?: Owner;
	/** Fixed ports (the demo uses 5678); free ones by default. */
	port?: number;
	brokerPort?: number;
	/** The packed package to install; default: the one globalSetup packed. */
	tarball?: string;
	/**
	 * A prepared user folder (package installed, database migrated) to copy instead of installing
	 * the package; default: the one globalSetup prepared (WALLET_E2E_TEMPLATE).
	 */
	template?: string;
	/** Must match the template's; default WALLET_E2E_ENCRYPTION_KEY, else a random one. */
	encryptionKey?: string;
	install?: InstallPaths;
}

export class N8nCli {
	readonly userFolder: string;
	readonly install: InstallPaths;
	readonly owner: Owner;
	port = 0;
	brokerPort = 0;
	protected readonly extraEnv: Record<string, string>;
	protected readonly encryptionKey: string;

	/** Protected: N8n (and the queue-mode cluster, test/queue/support) extend it; use N8n.create(). */
	protected constructor(userFolder: string, options: N8nOptions) {
		this.userFolder = userFolder;
		this.install = options.install ?? installPaths();
		this.owner = options.owner ?? DEFAULT_OWNER;
		this.extraEnv = options.env ?? {};
		this.encryptionKey =
			options.encryptionKey ?? process.env.WALLET_E2E_ENCRYPTION_KEY ?? randomBytes(24).toString('hex');
	}

	get dataDir(): string {
		return path.join(this.userFolder, '.n8n');
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/**
	 * Runs SQL statements on this n8n's SQLite database with n8n's own sqlite3, also while n8n runs
	 * (waits up to 10 s for n8n's write lock). For faults a test sets on purpose.
	 */
	sqlite(sql: string): void {
		const database = path.join(this.dataDir, 'database.sqlite');
		const script =
			"const sqlite3 = require('sqlite3'); const db = new sqlite3.Database(process.argv[1]);" +
			"db.configure('busyTimeout', 10000); db.exec(process.argv[2], (error) => { if (error) { console.error(error.message); process.exitCode = 1; } db.close(); });";
		const result = spawnSync(this.install.nodeBin, ['-e', script, database, sql], {
			cwd: this.install.n8nHost,
			encoding: 'utf8',
			env: { ...this.baseEnv(), NODE_PATH: this.install.n8nModules },
			timeout: 30000,
		});
		if (result.status !== 0) throw new Error(`SQL on ${database} failed:\n${sql}\n${result.stderr}`);
	}

	protected baseEnv(): NodeJS.ProcessEnv {
		return baseEnv(this.install);
	}

	private version?: string;

	/** The installed n8n's version (its install marker), e.g. "2.41.1" or "1.123.81". */
	get n8nVersion(): string {
		if (!this.version) {
			const marker = JSON.parse(fs.readFileSync(this.install.marker, 'utf8')) as { n8nInstalled?: string; n8n?: string };
			this.version = String(marker.n8nInstalled ?? marker.n8n);
		}
		return this.version;
	}

	/** n8n's major version: the harness switches the steps that differ between 1.x and 2.x on it. */
	get major(): number {
		return Number(this.n8nVersion.split('.')[0]);
	}

	/** The quiet, offline-friendly settings from the notes, with this instance's folder and ports. */
	env(): NodeJS.ProcessEnv {
		return {
			...this.baseEnv(),
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			DB_TYPE: 'sqlite',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PORT: String(this.port),
			N8N_PROTOCOL: 'http',
			N8N_SECURE_COOKIE: 'false',
			// (WEBHOOK_URL is deprecated in 2.x; 1.x reads only it.)
			...(this.major >= 2 ? { N8N_WEBHOOK_URL: `${this.baseUrl}/` } : { WEBHOOK_URL: `${this.baseUrl}/` }),
			// The future default is false; this package is an unverified community package.
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_EDITOR_BASE_URL: `${this.baseUrl}/`,
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: this.owner.email,
			N8N_INSTANCE_OWNER_FIRST_NAME: this.owner.firstName,
			N8N_INSTANCE_OWNER_LAST_NAME: this.owner.lastName,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: this.passwordHash(),
			...this.extraEnv,
		};
	}

	private hash?: string;

	private passwordHash(): string {
		if (!this.hash) {
			// bcryptjs ships with n8n; n8n compares the owner's password against this hash.
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const bcrypt = require(path.join(this.install.n8nModules, 'bcryptjs')) as {
				hashSync(password: string, rounds: number): string;
			};
			this.hash = bcrypt.hashSync(this.owner.password, 10);
		}
		return this.hash;
	}

	/** Runs one n8n CLI command to completion. */
	async cli(args: string[], options: { timeoutMs?: number } = {}): Promise<CliResult> {
		const timeoutMs = options.timeoutMs ?? 180000;
		const startedAt = Date.now();
		// stdout goes to a file, not a pipe: n8n ends with process.exit(), which can cut off
		// output still queued for a pipe (a large execution JSON), while file writes are synchronous.
		const stdoutFile = path.join(this.userFolder, `cli-${process.pid}-${Date.now()}-${randomBytes(4).toString('hex')}.out`);
		const stdoutFd = fs.openSync(stdoutFile, 'w');
		const child = spawnOwned(`n8n ${args[0]}`, this.install.nodeBin, [this.install.n8nBin, ...args], {
			cwd: this.userFolder,
			env: this.env(),
			stdio: ['ignore', stdoutFd, 'pipe'],
		});
		fs.closeSync(stdoutFd);
		let stderr = '';
		child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const pgid = child.pid!;
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			void stopGroup(pgid, 2000);
		}, timeoutMs);
		const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
			child.once('error', reject);
			child.once('close', (c, s) => resolve([c, s]));
		});
		clearTimeout(timer);
		const stdout = fs.readFileSync(stdoutFile, 'utf8');
		fs.rmSync(stdoutFile, { force: true });
		if (process.env.WALLET_E2E_TIMING) {
			process.stderr.write(`[e2e] n8n ${args[0]}: ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
		}
		// `n8n execute` leaves its JavaScript task runner behind for about 2 s after it exits; the
		// command is done, so end the rest of its group at once.
		if (groupAlive(pgid)) await stopGroup(pgid, 0);
		if (timedOut) throw new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`);
		return { code, signal, stdout, stderr };
	}

	/** Runs a CLI command and fails with its output when it exits non-zero. */
	async cliOk(args: string[], options: { timeoutMs?: number } = {}): Promise<CliResult> {
		const result = await this.cli(args, options);
		if (result.code !== 0) {
			throw new Error(`n8n ${args.join(' ')} exited ${result.code ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
		}
		return result;
	}

	private writeJson(name: string, data: unknown): string {
		const dir = path.join(this.userFolder, 'import');
		fs.mkdirSync(dir, { recursive: true });
		const file = path.join(dir, name);
		fs.writeFileSync(file, JSON.stringify(data, null, 2));
		return file;
	}

	/** `n8n import:credentials` of the Wallet Payments credential (fixed id), plus any others. */
	async importCredentials(
		credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>,
	): Promise<void> {
		const file = this.writeJson(`credentials-${Date.now()}.json`, credentials);
		await this.cliOk(['import:credentials', `--input=${file}`]);
	}

	async importWalletCredential(data: WalletCredentialData, id = CREDENTIAL_ID, name = CREDENTIAL_NAME) {
		await this.importCredentials([
			{ id, name, type: CREDENTIAL_TYPE, data: { webhookSecret: '', ...data } as Record<string, unknown> },
		]);
	}

	/** `n8n import:workflow` of one or more workflows (each with a fixed 16-character id). */
	async importWorkflows(workflows: WorkflowJson[]): Promise<void> {
		for (const workflow of workflows) {
			if (!/^[A-Za-z0-9]{16}$/.test(workflow.id)) throw new Error(`Workflow id "${workflow.id}" is not 16 letters/digits`);
		}
		const file = this.writeJson(`workflows-${Date.now()}.json`, workflows.map((w) => ({ settings: {}, active: false, ...w })));
		await this.cliOk(['import:workflow', `--input=${file}`]);
	}

	/** `n8n execute --id --rawOutput`; returns the parsed execution (status not checked). */
	async execute(workflowId: string): Promise<ExecutionResult & { cli: CliResult }> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput']);
		let parsed: ExecutionResult;
		try {
			parsed = extractExecutionJson(result.stdout);
		} catch (error) {
			throw new Error(
				`${(error as Error).message}\n(exit ${result.code}; stderr:)\n${result.stderr.slice(-4000)}`,
			);
		}
		return Object.assign(parsed, { cli: result });
	}

	/** Executes and asserts `status == "success"`, with the error in the message otherwise. */
	async executeOk(workflowId: string): Promise<ExecutionResult> {
		const result = await this.execute(workflowId);
		if (result.status !== 'success') {
			const error = result.data.resultData.error;
			throw new Error(
				`Workflow ${workflowId} ended "${result.status}" at node "${result.data.resultData.lastNodeExecuted}": ` +
					`${error?.message ?? '(no error message)'}\n${JSON.stringify(error, null, 2)?.slice(0, 3000)}`,
			);
		}
		return result;
	}

	/** Publishes (2.x) or activates (1.x) a workflow with the CLI; takes effect at the next start. */
	async publishWorkflow(workflowId: string): Promise<void> {
		if (this.major >= 2) await this.cliOk(['publish:workflow', `--id=${workflowId}`]);
		else await this.cliOk(['update:workflow', `--id=${workflowId}`, '--active=true']);
	}
}
