/**
 * jest globalSetup of the queue-mode suite (test/jest/queue.config.js): everything the e2e suite's
 * globalSetup does (n8n 2.41.1 and Node 24 in the cache, the package packed, a prepared user
 * folder with the package installed as n8n installs community packages), then PostgreSQL and
 * Redis from Debian's packages (apt-get install when missing), each a private server on a free
 * local port with its data inside the run folder, and one migrated template database that every
 * cluster's database is copied from.
 */
import * as fs from 'fs';

import e2eGlobalSetup from '../../e2e/support/globalSetup';
import { N8n } from '../../../tooling/n8n/n8n';
import { queueEnv } from './queueEnv';
import { ensureServices, psql, startPostgres, startRedis, type Service } from './services';

export const TEMPLATE_DATABASE = 'n8n_template';

/** Shared with globalTeardown (same process; jest loads the two modules separately). */
export const SERVICES_KEY = '__walletQueueServices';

export default async function globalSetup(): Promise<void> {
	await e2eGlobalSetup();
	const started = Date.now();
	const runDir = process.env.WALLET_E2E_RUN_DIR!;
	const log = (line: string) => process.stderr.write(`${line}\n`);
	const { postgresBin, redisBin } = ensureServices(log);
	const services: Service[] = [];
	(globalThis as Record<string, unknown>)[SERVICES_KEY] = services;
	// Also when interrupted (Ctrl-C, an error): tooling/n8n/processes.ts kills the servers' process
	// groups on exit and the e2e globalSetup removes the run folder with their data.
	process.on('exit', () => {
		for (const service of services) fs.rmSync(service.dataDir, { recursive: true, force: true });
	});
	const postgres = await startPostgres(postgresBin, { parentDir: runDir });
	services.push(postgres);
	const redis = await startRedis(redisBin, { parentDir: runDir });
	services.push(redis);
	process.env.WALLET_QUEUE_PG_PORT = String(postgres.port);
	process.env.WALLET_QUEUE_REDIS_PORT = String(redis.port);
	process.env.WALLET_QUEUE_PG_TEMPLATE = TEMPLATE_DATABASE;
	process.env.WALLET_QUEUE_MODE = '1';

	// The template database: n8n's migrations run once, by an n8n CLI command on PostgreSQL.
	psql(postgres.port, 'postgres', `CREATE DATABASE ${TEMPLATE_DATABASE}`);
	const migrator = await N8n.create({
		parentDir: runDir,
		env: queueEnv({ postgresPort: postgres.port, redisPort: redis.port, templateDatabase: TEMPLATE_DATABASE }, TEMPLATE_DATABASE, 'bulltemplate'),
	});
	try {
		await migrator.cliOk(['list:workflow']);
	} finally {
		await migrator.dispose();
	}
	log(
		`[queue] PostgreSQL on 127.0.0.1:${postgres.port} (pid ${postgres.pid}), Redis on 127.0.0.1:${redis.port} (pid ${redis.pid}), ` +
			`database migrated (${((Date.now() - started) / 1000).toFixed(1)} s)`,
	);
}
