/**
 * n8n's database pool giving no connection in time (node-postgres: "timeout exceeded when trying
 * to connect", after DB_POSTGRESDB_CONNECTION_TIMEOUT, 20 s): the call never reached the
 * database, so it is safe to make again, whatever it was. Measured in queue mode at n8n's default
 * pool of 2 connections: 300 deliveries at once failed trigger runs on this error at their
 * record, losing their events.
 */
import { sleep } from 'n8n-workflow';

export function isPoolTimeout(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /timeout exceeded when trying to connect/i.test(message);
}

/** Calls made again after a pool timeout, and the wait before each (ms, times the attempt). */
const POOL_ATTEMPTS = 4;
const POOL_BACKOFF_MS = 1000;

/**
 * Runs a call of n8n's database again while n8n's pool gives it no connection (up to
 * POOL_ATTEMPTS calls); `ms` is the time of the call that ran (for a store call, the one that
 * read and wrote the row).
 */
export async function afterPoolTimeout<T>(
	task: () => Promise<T>,
): Promise<{ answer: T; ms: number }> {
	for (let attempt = 1; ; attempt++) {
		const start = Date.now();
		const tried = await task().then(
			(value) => ({ ok: true as const, value }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		if (tried.ok) return { answer: tried.value, ms: Date.now() - start };
		if (attempt >= POOL_ATTEMPTS || !isPoolTimeout(tried.error)) {
			return await Promise.reject(tried.error);
		}
		await sleep(POOL_BACKOFF_MS * attempt);
	}
}
