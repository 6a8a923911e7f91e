/** The processes of a queue-mode n8n, and the environment they share (PostgreSQL, Redis, queue settings). */
import type { ChildProcess } from 'child_process';

import { poolSize } from './config';

export type Role = 'main' | 'worker' | 'webhook';

export interface ClusterProcess {
	name: string;
	role: Role;
	/** The port its HTTP server listens on (a worker's health server). */
	port: number;
	brokerPort: number;
	child?: ChildProcess;
	log: string;
	lifetimeTimer?: NodeJS.Timeout;
}

/** Where globalSetup's PostgreSQL and Redis are (environment set by test/queue/support/globalSetup.ts). */
export interface QueueServices {
	postgresPort: number;
	redisPort: number;
	/** The database every cluster's own database is copied from (migrated, empty). */
	templateDatabase: string;
}

export function queueServicesFromEnv(): QueueServices {
	const postgresPort = Number(process.env.WALLET_QUEUE_PG_PORT);
	const redisPort = Number(process.env.WALLET_QUEUE_REDIS_PORT);
	const templateDatabase = process.env.WALLET_QUEUE_PG_TEMPLATE ?? '';
	if (!postgresPort || !redisPort || !templateDatabase) {
		throw new Error('No PostgreSQL/Redis: run the queue-mode suite with `npm run test:queue` (test/jest/queue.config.js starts them)');
	}
	return { postgresPort, redisPort, templateDatabase };
}

/** The environment every process of a queue-mode n8n shares (README, "Running in queue mode"). */
export function queueEnv(services: QueueServices, database: string, prefix: string): Record<string, string> {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(services.postgresPort),
		DB_POSTGRESDB_DATABASE: database,
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		// n8n's default pool of 2 connections per process (WALLET_QUEUE_CONFIG=defaults): a webhook
		// processor under hundreds of simultaneous requests then answers 500/503 ("Database is not
		// ready!"), measured. The README recommends 10 (config.ts).
		...poolSetting(),
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(services.redisPort),
		// One Redis for every cluster of the run: each its own key prefix.
		QUEUE_BULL_PREFIX: prefix,
		// "Execute workflow" in the editor runs on a worker too (n8n 3 will always do so).
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// Production webhooks are served by the webhook processors only.
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
	};
}

/** DB_POSTGRESDB_POOL_SIZE when the configuration sets one (config.ts). */
function poolSetting(): Record<string, string> {
	const pool = poolSize();
	return pool === undefined ? {} : { DB_POSTGRESDB_POOL_SIZE: pool };
}
