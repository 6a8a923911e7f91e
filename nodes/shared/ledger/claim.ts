/**
 * The claim: records values so that, of several n8n processes recording one at the same moment,
 * exactly one gets it (n8n's store has no lock). Each attempt writes the values with a token
 * unique to it, waits, and checks that the token is still there: a write that another process's
 * read-change-write dropped is not a claim. docs/ledger.md has the reasoning and its assumption.
 */
import { sleep } from 'n8n-workflow';

import { claimToken } from './states';

/**
 * Attempts of a claim (record, wait, check) before its values are given up as unresolved. Under
 * load an attempt is written over often (measured in queue mode: about 1 in 7 with 2 workers and
 * 20 runs of one workflow at once), so one more attempt is cheap insurance against failing a run.
 */
export const CLAIM_ROUNDS = 6;

/**
 * What a claim found. `ours`: recorded by this claim, and its write held through the wait, so no
 * other claim of the same value at the same moment holds it. `theirs`: recorded before (an
 * earlier run, or another process's claim that held). `unresolved`: neither could be made sure
 * of (the store lost every attempt, or a store call took longer than the wait allows); whoever
 * asked must not act on them.
 */
export interface ClaimResult {
	ours: string[];
	theirs: string[];
	unresolved: string[];
	/** Why some are unresolved, for the user. */
	why?: string;
}

/** The store calls a claim makes: one write (serialized with this process's other calls), timed. */
export interface ClaimStore {
	/** Records `values` outside the verification's bookkeeping: what was already there, and the call's time. */
	write(values: string[]): Promise<{ found: Set<string>; ms: number }>;
	/** These values are not this process's to write again (verify.ts). */
	disown(values: string[]): void;
}

/** The first attempt's write, made by the caller with its own values (ledger.reserve). */
export interface FirstWrite {
	token: string;
	callMs: number;
}

const tooSlow = (ms: number, waitMs: number) =>
	`one of n8n's store calls took ${ms} ms, as long as the claim wait (${waitMs} ms) or longer`;

/**
 * Checks of an attempt's token, a claim wait apart. One check is not enough: a chain of three
 * store calls of other processes, each writing back a row it read before, can restore this
 * attempt's token for its check and another attempt's token for that one's, so both hold. Each
 * further check needs a longer chain to be fooled (docs/ledger.md, "The claim").
 */
export const CHECKS = 2;

/** The attempt's checks: held (the token was there every time), or a call as long as the wait. */
async function checks(store: ClaimStore, token: string, waitMs: number) {
	for (let check = 0; check < CHECKS; check++) {
		if (check > 0) await sleep(waitMs);
		const checked = await store.write([token]);
		if (checked.ms >= waitMs) return { held: false, slow: checked.ms };
		if (!checked.found.has(token)) return { held: false };
	}
	return { held: true };
}

/**
 * Claims `values`, waiting `waitMs` per attempt. No store call, in any process, may take two
 * `waitMs` between its read and its write: one that read the row before this claim's write and
 * writes it back after the second check drops a claim that held; earlier, a check sees it. Two
 * claims written by calls shorter than `waitMs` see each other's write before they check, so a
 * store call of this process taking all of `waitMs` or longer (from asking for a
 * connection to the answer) may have written over another claim of the same value that had
 * already held: its values are unresolved. With `first`, the first attempt's write was made by
 * the caller, and `values` are the ones it found new.
 */
export async function claim(
	store: ClaimStore,
	values: string[],
	waitMs: number,
	first?: FirstWrite,
	wrote: (token: string) => void = () => undefined,
): Promise<ClaimResult> {
	const result: ClaimResult = { ours: [], theirs: [], unresolved: [] };
	let pending = [...new Set(values)];
	for (let round = 0; round < CLAIM_ROUNDS && pending.length > 0; round++) {
		let token: string;
		let callMs: number;
		if (round === 0 && first) {
			({ token, callMs } = first);
			store.disown([token]);
		} else {
			token = claimToken();
			wrote(token);
			const written = await store.write([...pending, token]);
			callMs = written.ms;
			result.theirs.push(...pending.filter((value) => written.found.has(value)));
			pending = pending.filter((value) => !written.found.has(value));
		}
		if (callMs >= waitMs) {
			result.why = tooSlow(callMs, waitMs);
			break;
		}
		if (pending.length === 0) break;
		// Later attempts wait a little longer at random, so that two claims written over together do
		// not keep meeting.
		await sleep(round === 0 ? waitMs : waitMs + Math.floor(Math.random() * (waitMs / 2)));
		const checked = await checks(store, token, waitMs);
		if (checked.slow !== undefined) {
			result.why = tooSlow(checked.slow, waitMs);
			break;
		}
		if (checked.held) {
			result.ours.push(...pending);
			pending = [];
		} else {
			// Another process's call wrote the row over this attempt: what the next attempt finds is
			// the other claim's, and what it does not find it records again.
			result.why = `another n8n process's store call wrote over this claim ${round + 1} time(s)`;
		}
	}
	result.unresolved.push(...pending);
	// Only what held is this claim's to keep: the rest is not written again by verify().
	store.disown([...result.theirs, ...result.unresolved]);
	return result;
}
