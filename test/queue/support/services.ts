/**
 * PostgreSQL and Redis for the queue-mode suite, MariaDB for the compat suite: Debian's packages (installed with apt-get when
 * missing), each started as a private server on a free 127.0.0.1 port with its data in a
 * temporary folder, each in its own process group owned by this process (tooling/n8n/processes.ts:
 * stopped by PID, killed with jest if jest dies), and the folder removed when stopped.
 */
import { spawnSync, type ChildProcess, type SpawnOptions } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { freePorts } from '../../../tooling/n8n/ports';
import { groupAlive, spawnOwned, stopGroup } from '../../../tooling/n8n/processes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The newest /usr/lib/postgresql/<major>/bin with a server in it, or undefined. */
export function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const majors = fs
		.readdirSync(root)
		.filter((name) => /^\d+$/.test(name) && fs.existsSync(path.join(root, name, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(root, majors[0], 'bin') : undefined;
}

function which(command: string): string | undefined {
	const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
	const found = result.stdout.trim();
	return result.status === 0 && found ? found : undefined;
}

export function redisServerBin(): string | undefined {
	return which('redis-server') ?? (fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined);
}

function apt(args: string[]): { ok: boolean; output: string } {
	const result = spawnSync('apt-get', args, {
		encoding: 'utf8',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		timeout: 600000,
	});
	return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.slice(-3000) };
}

/**
 * Installs Debian's packages that are missing (`apt-get install -y`, after `apt-get update` if the
 * first try fails). Needs root; otherwise it says what to install.
 */
function installMissing(missing: string[], suite: string, log: (line: string) => void): void {
	if (missing.length === 0) return;
	if (process.platform !== 'linux' || !which('apt-get')) {
		throw new Error(`${suite} needs ${missing.join(' and ')}; install them (this script installs them only with apt-get)`);
	}
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		throw new Error(`${suite} needs ${missing.join(' and ')}: run \`sudo apt-get install -y ${missing.join(' ')}\` first`);
	}
	log(`[services] installing ${missing.join(', ')} with apt-get`);
	let result = apt(['install', '-y', '--no-install-recommends', ...missing]);
	if (!result.ok) {
		apt(['update']);
		result = apt(['install', '-y', '--no-install-recommends', ...missing]);
	}
	if (!result.ok) throw new Error(`apt-get install -y ${missing.join(' ')} failed:\n${result.output}`);
}

/** `postgresql` (the server) and `redis-server`, installed when missing. */
export function ensureServices(log: (line: string) => void = () => undefined): { postgresBin: string; redisBin: string } {
	const missing: string[] = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisServerBin()) missing.push('redis-server');
	installMissing(missing, 'The queue-mode suite', log);
	const bin = postgresBinDir();
	const redis = redisServerBin();
	if (!bin || !redis) throw new Error('PostgreSQL or Redis is still missing after apt-get install');
	return { postgresBin: bin, redisBin: redis };
}

const MARIADB_SERVER = '/usr/sbin/mariadbd';

/** `mariadb-server`, installed when missing; its server binary. */
export function ensureMariadb(log: (line: string) => void = () => undefined): string {
	if (!fs.existsSync(MARIADB_SERVER)) installMissing(['mariadb-server'], 'The MariaDB test', log);
	if (!fs.existsSync(MARIADB_SERVER)) throw new Error(`${MARIADB_SERVER} is still missing after apt-get install`);
	return MARIADB_SERVER;
}

export interface Service {
	name: string;
	port: number;
	pid: number;
	dataDir: string;
	stop(): Promise<void>;
}

/** Folders for servers that may run as another user (postgres refuses root): world-traversable. */
function serviceDir(prefix: string, parentDir: string | undefined, owner?: { uid: number; gid: number }): string {
	const parent = parentDir ?? os.tmpdir();
	if (owner && parentDir) fs.chmodSync(parentDir, 0o711); // the server's user must reach its folder
	const dir = fs.mkdtempSync(path.join(parent, prefix));
	if (owner) fs.chownSync(dir, owner.uid, owner.gid);
	return dir;
}

function userIds(name: string): { uid: number; gid: number } | undefined {
	const result = spawnSync('id', ['-u', name], { encoding: 'utf8' });
	const group = spawnSync('id', ['-g', name], { encoding: 'utf8' });
	if (result.status !== 0 || group.status !== 0) return undefined;
	return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}

async function waitUntil(what: string, child: ChildProcess, log: () => string, check: () => boolean, timeoutMs: number) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
		if (check()) return;
		await sleep(200);
	}
	throw new Error(`${what} was not ready within ${timeoutMs} ms:\n${log()}`);
}

async function stopService(child: ChildProcess, firstSignal: NodeJS.Signals, dataDir: string) {
	const pid = child.pid;
	if (pid !== undefined && groupAlive(pid)) {
		try {
			process.kill(pid, firstSignal);
		} catch {
			// gone
		}
		const deadline = Date.now() + 10000;
		while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
		await stopGroup(pid, 2000);
	}
	fs.rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Starts a server in its own process group, keeps the end of its output, and waits until the
 * output says it is ready; a server that is not ready in time is stopped and its folder removed.
 */
async function runService(spec: {
	name: string;
	/** The process's name in logs and errors. */
	label: string;
	bin: string;
	args: string[];
	spawnOptions: SpawnOptions;
	port: number;
	dataDir: string;
	stopSignal: NodeJS.Signals;
	ready: (output: string) => boolean;
	timeoutMs: number;
}): Promise<Service> {
	let output = '';
	const child = spawnOwned(spec.label, spec.bin, spec.args, { ...spec.spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
	const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20000));
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	const service: Service = {
		name: spec.name,
		port: spec.port,
		pid: child.pid!,
		dataDir: spec.dataDir,
		stop: async () => await stopService(child, spec.stopSignal, spec.dataDir),
	};
	try {
		await waitUntil(spec.label, child, () => output, () => spec.ready(output), spec.timeoutMs);
	} catch (error) {
		await service.stop();
		throw error;
	}
	return service;
}

/**
 * A private PostgreSQL cluster: `initdb` into a temporary folder (trust authentication, user
 * `postgres`, TCP on 127.0.0.1 only, no Unix socket), then `postgres` in the foreground. As root it
 * runs as the `postgres` user (PostgreSQL refuses root). It runs with PostgreSQL's default
 * durability (fsync, synchronous commit, full page writes all on), as users run it, so the store
 * calls the claim waits are measured against are theirs; only initdb skips its one-off flush.
 */
export async function startPostgres(binDir: string, options: { timeoutMs?: number; parentDir?: string } = {}): Promise<Service> {
	const asUser = typeof process.getuid === 'function' && process.getuid() === 0 ? userIds('postgres') : undefined;
	if (typeof process.getuid === 'function' && process.getuid() === 0 && !asUser) {
		throw new Error('PostgreSQL refuses to run as root and there is no `postgres` user (the postgresql package creates it)');
	}
	const dataDir = serviceDir('postgres-', options.parentDir, asUser);
	const ids = asUser ? { uid: asUser.uid, gid: asUser.gid } : {};
	const initdb = spawnSync(
		path.join(binDir, 'initdb'),
		['-D', path.join(dataDir, 'data'), '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
		{ encoding: 'utf8', timeout: 120000, cwd: dataDir, ...ids },
	);
	if (initdb.status !== 0) {
		fs.rmSync(dataDir, { recursive: true, force: true });
		throw new Error(`initdb failed:\n${initdb.stdout}\n${initdb.stderr}`);
	}
	const [port] = await freePorts(1);
	return await runService({
		name: 'postgres',
		label: 'postgres',
		bin: path.join(binDir, 'postgres'),
		args: [
			'-D', path.join(dataDir, 'data'),
			'-p', String(port),
			'-c', 'listen_addresses=127.0.0.1',
			'-c', 'unix_socket_directories=',
			'-c', 'max_connections=200',
		],
		spawnOptions: { cwd: dataDir, ...ids },
		port,
		dataDir,
		// SIGINT: PostgreSQL's "fast" shutdown (SIGTERM would wait for every client to leave).
		stopSignal: 'SIGINT',
		ready: (output) => output.includes('ready to accept connections'),
		timeoutMs: options.timeoutMs ?? 60000,
	});
}

/** Runs SQL with psql against the private cluster; returns stdout (unaligned, tuples only). */
export function psql(port: number, database: string, sql: string, binDir = postgresBinDir()): string {
	const psqlBin = binDir && fs.existsSync(path.join(binDir, 'psql')) ? path.join(binDir, 'psql') : 'psql';
	const result = spawnSync(psqlBin, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql], {
		encoding: 'utf8',
		timeout: 60000,
	});
	if (result.status !== 0) throw new Error(`psql (${database}): ${sql}\n${result.stderr}`);
	return result.stdout.trim();
}

/** A private redis-server: 127.0.0.1, a free port, no persistence, its folder temporary. */
export async function startRedis(redisBin: string, options: { timeoutMs?: number; parentDir?: string } = {}): Promise<Service> {
	const dataDir = serviceDir('redis-', options.parentDir);
	const [port] = await freePorts(1);
	return await runService({
		name: 'redis',
		label: 'redis-server',
		bin: redisBin,
		args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dataDir, '--daemonize', 'no', '--protected-mode', 'yes'],
		spawnOptions: { cwd: dataDir },
		port,
		dataDir,
		stopSignal: 'SIGTERM',
		ready: (output) => /Ready to accept connections/i.test(output),
		timeoutMs: options.timeoutMs ?? 30000,
	});
}

/**
 * A private MariaDB server: `mariadb-install-db` into a temporary folder (user root without a
 * password), then `mariadbd` on 127.0.0.1 and a free port, as root (`--user=root`), its socket in
 * the folder. Debian's defaults otherwise, strict mode included (as a MariaDB n8n runs on has it).
 */
export async function startMariadb(bin: string, options: { timeoutMs?: number; parentDir?: string } = {}): Promise<Service> {
	const dataDir = serviceDir('mariadb-', options.parentDir);
	const install = spawnSync(
		'mariadb-install-db',
		['--no-defaults', `--datadir=${path.join(dataDir, 'data')}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root'],
		{ encoding: 'utf8', timeout: 120000, cwd: dataDir },
	);
	if (install.status !== 0) {
		fs.rmSync(dataDir, { recursive: true, force: true });
		throw new Error(`mariadb-install-db failed:\n${install.stdout}\n${install.stderr}`);
	}
	const [port] = await freePorts(1);
	return await runService({
		name: 'mariadb',
		label: 'mariadbd',
		bin,
		args: [
			'--no-defaults',
			`--datadir=${path.join(dataDir, 'data')}`,
			`--port=${port}`,
			'--bind-address=127.0.0.1',
			`--socket=${path.join(dataDir, 'mariadb.sock')}`,
			`--pid-file=${path.join(dataDir, 'mariadb.pid')}`,
			'--user=root',
			'--innodb-flush-log-at-trx-commit=0',
		],
		spawnOptions: { cwd: dataDir },
		port,
		dataDir,
		stopSignal: 'SIGTERM',
		ready: (output) => output.includes('ready for connections'),
		timeoutMs: options.timeoutMs ?? 60000,
	});
}

/** Runs SQL with the `mariadb` client against the private server; returns stdout (tab-separated, no headers). */
export function mariadbQuery(port: number, sql: string, database?: string): string {
	const result = spawnSync('mariadb', ['-h', '127.0.0.1', '-P', String(port), '-u', 'root', '-N', '-B', ...(database ? [database] : []), '-e', sql], {
		encoding: 'utf8',
		timeout: 60000,
	});
	if (result.status !== 0) throw new Error(`mariadb: ${sql}\n${result.stderr}`);
	return result.stdout.trim();
}
