/**
 * The two configurations issue #29's proof runs every queue-mode scenario in:
 *
 * - `defaults`: n8n's own defaults (its database pool of 2 connections per process) and the
 *   credential as a user creates it (API key, Base URL, signing secret; nothing queue-specific);
 * - `recommended`: what docs/self-hosting.md's checklist recommends: the same credential (its
 *   *n8n Runs As* left as created) and `DB_POSTGRESDB_POOL_SIZE=10`.
 *
 * WALLET_QUEUE_CONFIG picks one: `recommended` (what `npm test` runs) unless it says `defaults`.
 * WALLET_QUEUE_POOL_SIZE sets another pool for a measurement (`default`: n8n's, the same as
 * WALLET_QUEUE_CONFIG=defaults).
 * Every scenario's line names its configuration: `queue[<scenario>,<config>]: …`.
 */
export type QueueConfig = 'defaults' | 'recommended';

export const QUEUE_CONFIG: QueueConfig =
	process.env.WALLET_QUEUE_CONFIG === 'defaults' || process.env.WALLET_QUEUE_POOL_SIZE === 'default' ? 'defaults' : 'recommended';

/** The README's pool size (docs/self-hosting.md, "Pool size"). */
export const RECOMMENDED_POOL_SIZE = '10';

/** The configuration's pool; undefined leaves n8n's default. */
const CONFIG_POOL_SIZE = QUEUE_CONFIG === 'defaults' ? undefined : RECOMMENDED_POOL_SIZE;

/** DB_POSTGRESDB_POOL_SIZE for every process of the cluster; undefined leaves n8n's default. */
export function poolSize(): string | undefined {
	const chosen = process.env.WALLET_QUEUE_POOL_SIZE;
	if (chosen === 'default') return undefined;
	return chosen || CONFIG_POOL_SIZE;
}

/** The label of a scenario's line: `queue[<scenario>,<config>]`, and the pool when a measurement chose another. */
export function queueLabel(scenario: string): string {
	const pool = poolSize();
	return `queue[${scenario},${QUEUE_CONFIG}${pool === CONFIG_POOL_SIZE ? '' : `, pool ${pool}`}]`;
}
