/**
 * Whether several n8n processes share this workflow's records (queue mode: workers, several
 * webhook processors or mains), from the Wallet Payments credential. n8n tells a node nothing
 * about how it is deployed, so the user says it. In one process every store call of this package
 * is serialized (store.ts) and nothing waits; across processes a record is a claim that waits,
 * then checks it held (claim.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The claim wait's default, in ms: twice a store call's read-to-write bound of 2 s, which is over
 * twice the p99.9 measured in queue mode under load (739–910 ms in three runs, 1,482 ms once in
 * CI: 2 workers, 50 runs at once; README "Running in queue mode"). A full store (620,000 records)
 * makes every call slower: raise it.
 */
export const DEFAULT_CLAIM_WAIT_MS = 4000;
/** Below this a claim wait cannot cover a database round trip: not accepted. */
export const MIN_CLAIM_WAIT_MS = 100;

/** The claim wait in ms when several n8n processes share the records, else undefined (one n8n). */
export async function crossProcessWait(context: IExecuteFunctions): Promise<number | undefined> {
	const credentials = await context.getCredentials('walletPaymentsApi');
	if (credentials.queueMode !== true) return undefined;
	const wait = Number(credentials.claimWaitMs ?? DEFAULT_CLAIM_WAIT_MS);
	return Number.isFinite(wait)
		? Math.max(MIN_CLAIM_WAIT_MS, Math.floor(wait))
		: DEFAULT_CLAIM_WAIT_MS;
}
