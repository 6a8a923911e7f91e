/**
 * Whether several n8n processes may share this workflow's records (queue mode: workers, several
 * webhook processors or mains). n8n tells a node nothing about how it is deployed, so records are
 * claims across processes (claim.ts: a wait, then checks that they held) unless the credential
 * says n8n is one process ("n8n Runs As": One Process Only); then every store call of this
 * package is serialized (store.ts) and nothing waits. A credential saved before that field
 * existed, or created without touching it, claims: safe without any setting.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { afterPoolTimeout } from './pool';
import { readCredential } from '../credential';

/**
 * The claim wait's default, in ms. A claim needs every store call, in any process, to take under
 * two claim waits between its read and its write (8 s); the queue suite holds the slowest under
 * one (the most measured: 2,020 ms in CI, 2 workers, 50 runs at once; docs/ledger.md, "The timing
 * assumption"). A full store (620,000 records) makes every call slower: raise it.
 */
export const DEFAULT_CLAIM_WAIT_MS = 4000;
/** Below this a claim wait cannot cover a database round trip: not accepted. */
export const MIN_CLAIM_WAIT_MS = 100;

/** The credential's "n8n Runs As" value that skips claims; any other value (or none) claims. */
export const ONE_PROCESS = 'one';

/** The claim wait in ms; undefined when the credential says One Process Only. */
export async function readClaimWait(context: IExecuteFunctions): Promise<number | undefined> {
	// Read again while n8n's pool gives no connection, as the store calls are (pool.ts).
	const { answer: credentials } = await afterPoolTimeout(async () => await readCredential(context));
	if (credentials.processes === ONE_PROCESS) return undefined;
	const wait = Number(credentials.claimWaitMs ?? DEFAULT_CLAIM_WAIT_MS);
	return Number.isFinite(wait)
		? Math.max(MIN_CLAIM_WAIT_MS, Math.floor(wait))
		: DEFAULT_CLAIM_WAIT_MS;
}
