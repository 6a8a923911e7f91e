/**
 * n8n's database pool giving no connection in time (node-postgres: "timeout exceeded when trying
 * to connect", after DB_POSTGRESDB_CONNECTION_TIMEOUT, 20 s): the call never reached the
 * database, so it is safe to make again, whatever it was. A trigger run that fails on it loses
 * its event when n8n already answered the delivery 200, and a payout run stops half-way.
 */
import { sleep } from 'n8n-workflow';

export function isPoolTimeout(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /timeout exceeded when trying to connect/i.test(message);
}

/**
 * How long a call is made again while the pool gives it no connection, from its first attempt.
 * A burst keeps a small pool busy for minutes (measured at n8n's default pool of 2: n8n's own
 * calls failed on it for over a minute, docs/self-hosting.md, "Pool size"); a run that waits
 * holds one of its worker's job slots and no connection.
 */
export const POOL_PATIENCE_MS = 300_000;
/** The wait before each further call: the attempt's number times this, at most POOL_MAX_BACKOFF_MS. */
const POOL_BACKOFF_MS = 1000;
const POOL_MAX_BACKOFF_MS = 5000;

/**
 * Runs a call of n8n's database again while n8n's pool gives it no connection (for up to
 * POOL_PATIENCE_MS); `ms` is the time of the call that ran (for a store call, the one that read
 * and wrote the row).
 */
export async function afterPoolTimeout<T>(
	task: () => Promise<T>,
): Promise<{ answer: T; ms: number }> {
	return await retrying(task, isPoolTimeout);
}

/**
 * Runs a store call again on any error, for up to POOL_PATIENCE_MS: for the trigger's calls after
 * its delivery was answered 200, when failing would leave an event answered and not passed on.
 * Safe: every such call records or removes values, and doing it twice changes nothing.
 */
export async function patiently<T>(task: () => Promise<T>): Promise<T> {
	return (await retrying(task, () => true)).answer;
}

/** The one retry loop: again while `again(error)` holds, with a growing wait, for up to POOL_PATIENCE_MS. */
async function retrying<T>(
	task: () => Promise<T>,
	again: (error: unknown) => boolean,
): Promise<{ answer: T; ms: number }> {
	const first = Date.now();
	for (let attempt = 1; ; attempt++) {
		const start = Date.now();
		const tried = await task().then(
			(value) => ({ ok: true as const, value }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		if (tried.ok) return { answer: tried.value, ms: Date.now() - start };
		const backoff = Math.min(POOL_BACKOFF_MS * attempt, POOL_MAX_BACKOFF_MS);
		if (!again(tried.error) || Date.now() + backoff - first > POOL_PATIENCE_MS) {
			return await Promise.reject(tried.error);
		}
		await sleep(backoff);
	}
}
