/**
 * A real n8n 2.x with this package loaded, in an isolated user folder, driven through its CLI and
 * (when started) its HTTP API. Facts this relies on: ../shared/notes/n8n-e2e.md.
 */
import { spawnSync, type ChildProcess } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { installPaths, REPO_ROOT, type InstallPaths } from './install';
import { freePorts } from './ports';
import { groupAlive, spawnOwned, stopGroup } from './processes';

export const PACKAGE_NAME = 'n8n-nodes-wallet-payments';
export const WALLET_NODE_TYPE = `${PACKAGE_NAME}.walletPayments`;
export const WALLET_TRIGGER_TYPE = `${PACKAGE_NAME}.walletPaymentsTrigger`;
/** The action node as an AI agent's tool: n8n makes this type from the node (usableAsTool). */
export const WALLET_TOOL_TYPE = `${PACKAGE_NAME}.walletPaymentsTool`;
export const CREDENTIAL_TYPE = 'walletPaymentsApi';
/** Fixed ids so workflows can refer to the imported credential. */
export const CREDENTIAL_ID = 'WalletE2eCred001';
export const CREDENTIAL_NAME = 'Wallet Payments (sandbox)';

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: Owner = {
	email: 'owner@wallet-payments.test',
	password: 'Sandbox-Passw0rd!',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

export interface WalletCredentialData {
	apiKey: string;
	baseUrl: string;
	webhookSecret?: string;
	/** The credential's "n8n Runs As" (left out: as a user creates it, claims) and Claim Wait (ms). */
	processes?: 'one' | 'several';
	/** The payment limits (nodes/WalletPayments/controls/paymentLimits.ts). */
	maxPerPayment?: string;
	maxPerRun?: string;
	allowedCurrencies?: string;
	savedBeneficiariesOnly?: boolean;
	claimWaitMs?: number;
}

export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[key: string]: unknown;
}

/** One node's run inside an execution, as n8n stores it. */
export interface NodeRun {
	startTime: number;
	/** n8n's own time of the node's run (ms). */
	executionTime?: number;
	executionStatus?: string;
	error?: { message: string; description?: string; httpCode?: string; [key: string]: unknown };
	data?: { main: Array<Array<{ json: Record<string, unknown>; pairedItem?: unknown }> | null> };
	source?: unknown;
}

export interface ExecutionResult {
	status: string;
	finished?: boolean;
	mode?: string;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			lastNodeExecuted?: string;
			error?: { message: string; node?: { name: string }; [key: string]: unknown };
		};
	};
	[key: string]: unknown;
}

/**
 * The JSON `n8n execute --rawOutput` prints after its log lines: it starts at the first line that
 * is exactly `{` and ends at the last line that is exactly `}`.
 */
export function extractExecutionJson(stdout: string): ExecutionResult {
	const lines = stdout.split(/\r?\n/);
	const start = lines.findIndex((line) => line === '{');
	let end = -1;
	for (let i = lines.length - 1; i >= 0; i--) {
		if (lines[i] === '}') {
			end = i;
			break;
		}
	}
	if (start < 0 || end < start) {
		throw new Error(`No execution JSON in n8n's output:\n${stdout.slice(-4000)}`);
	}
	const text = lines.slice(start, end + 1).join('\n');
	try {
		return JSON.parse(text) as ExecutionResult;
	} catch (error) {
		throw new Error(`n8n's execution JSON does not parse (${(error as Error).message}):\n${text.slice(0, 4000)}`);
	}
}

/** The first output's items of a node's first run, as JSON objects. */
export function nodeOutput(result: ExecutionResult, nodeName: string, runIndex = 0, outputIndex = 0) {
	const runs = result.data.resultData.runData[nodeName];
	if (!runs) {
		throw new Error(
			`Node "${nodeName}" did not run; ran: ${Object.keys(result.data.resultData.runData).join(', ')}`,
		);
	}
	const run = runs[runIndex];
	if (!run) throw new Error(`Node "${nodeName}" has no run ${runIndex}`);
	if (run.error) throw new Error(`Node "${nodeName}" failed: ${run.error.message} ${run.error.description ?? ''}`);
	return (run.data?.main[outputIndex] ?? []).map((item) => item.json);
}

/** Items with their pairedItem, for paired-item assertions. */
export function nodeItems(result: ExecutionResult, nodeName: string, runIndex = 0, outputIndex = 0) {
	const run = result.data.resultData.runData[nodeName]?.[runIndex];
	if (!run) throw new Error(`Node "${nodeName}" did not run`);
	return run.data?.main[outputIndex] ?? [];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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


/** Variables passed through from the environment (nothing else leaks in, e.g. jest's NODE_ENV). */
const PASS_THROUGH = ['HOME', 'USER', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'SHELL', 'TERM'];
/** What programs need on Windows (absent elsewhere). */
const PASS_THROUGH_WINDOWS = ['USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'SystemRoot', 'ComSpec', 'PATHEXT', 'TEMP', 'TMP'];
/**
 * How this machine reaches the npm registry (a proxy, its certificate authority): n8n runs npm for
 * its Community Nodes page (`npm outdated`), which otherwise waits about 70 s for a registry it
 * cannot verify.
 */
const PASS_THROUGH_NETWORK = [
	'NODE_EXTRA_CA_CERTS',
	'SSL_CERT_FILE',
	'SSL_CERT_DIR',
	'HTTP_PROXY',
	'HTTPS_PROXY',
	'NO_PROXY',
	'http_proxy',
	'https_proxy',
	'no_proxy',
];

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

/** A JSON request to n8n (REST or public API); a body that is not JSON is returned as text. */
async function fetchJson<T>(
	url: string,
	method: string,
	headers: Record<string, string>,
	body?: unknown,
): Promise<{ status: number; body: T }> {
	const response = await fetch(url, {
		method,
		headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: keep the text
	}
	return { status: response.status, body: parsed as T };
}

export class N8n {
	readonly userFolder: string;
	readonly install: InstallPaths;
	readonly owner: Owner;
	port = 0;
	brokerPort = 0;
	private readonly extraEnv: Record<string, string>;
	private readonly encryptionKey: string;
	private server?: ChildProcess;
	private serverLog = '';
	private cookie?: string;
	private apiKey?: string;

	/** Protected: subclasses (the queue-mode cluster, test/queue/support) extend it; use create(). */
	protected constructor(userFolder: string, options: N8nOptions) {
		this.userFolder = userFolder;
		this.install = options.install ?? installPaths();
		this.owner = options.owner ?? DEFAULT_OWNER;
		this.extraEnv = options.env ?? {};
		this.encryptionKey =
			options.encryptionKey ?? process.env.WALLET_E2E_ENCRYPTION_KEY ?? randomBytes(24).toString('hex');
	}

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
		n8n.installPackage(tarball);
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

	get dataDir(): string {
		return path.join(this.userFolder, '.n8n');
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
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
	private installPackage(tarball: string): void {
		const nodesDir = path.join(this.dataDir, 'nodes');
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
				env: this.baseEnv(),
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
	registerCommunityPackage(): void {
		const packageDir = path.join(this.dataDir, 'nodes', 'node_modules', PACKAGE_NAME);
		const database = path.join(this.dataDir, 'database.sqlite');
		if (!fs.existsSync(database)) throw new Error(`No n8n database yet in ${this.dataDir}: run an n8n command first`);
		const result = spawnSync(this.install.nodeBin, ['-e', REGISTER_PACKAGE_SCRIPT, database, packageDir], {
			cwd: this.install.n8nHost,
			encoding: 'utf8',
			env: { ...this.baseEnv(), NODE_PATH: this.install.n8nModules },
			timeout: 60000,
		});
		if (result.status !== 0) {
			throw new Error(`Recording ${PACKAGE_NAME} in n8n's database failed:\n${result.stdout}\n${result.stderr}`);
		}
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

	private baseEnv(): NodeJS.ProcessEnv {
		const env: NodeJS.ProcessEnv = {};
		for (const name of [...PASS_THROUGH, ...PASS_THROUGH_WINDOWS, ...PASS_THROUGH_NETWORK]) if (process.env[name] !== undefined) env[name] = process.env[name];
		env.PATH = `${this.install.nodeBinDir}${path.delimiter}${process.env.PATH ?? ''}`;
		return env;
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

