/**
 * The trigger's events after its delivery was answered (issue #54): the run answers 200 once the
 * event's first record (`E#claimed`) is written, then settles here which run passes the event on.
 * Values (states.ts): `E#claimed` held or being handled; `E` passed on (as in 0.1.0 rows);
 * `E#pass:<uuid>` this run's pass call; `E#takeover:<g>` generation g may pass. The reasoning:
 * docs/ledger.md, "The trigger's records".
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CHECKS } from './claim';
import { patiently, POOL_PATIENCE_MS } from './pool';
import { notPassed, warnUnsure } from './eventNotices';
import { claimedMarker, claimToken, eventTakeoverMarker, passMarker } from './states';
import type { Store } from './store';
import { FRESH_CLAIM_WAITS } from './takeover';

/** How long after its claim held a run may still pass its event as it is: later it must win a takeover generation first. */
export const freshMs = (waitMs: number) => FRESH_CLAIM_WAITS * waitMs;
/**
 * How long after its claim held a run's `E` must have held (passHeld): its pass call starts within
 * freshMs, and with its checks lasts under five claim waits; one loss written again costs two more.
 */
const passWindowMs = (waitMs: number) => freshMs(waitMs) + 7 * waitMs;
/**
 * How long a run that found `E#claimed` waits before it claims a takeover generation: past a live
 * holder's pass window, by one claim wait.
 */
export const triggerTakeoverWaitMs = (waitMs: number) => passWindowMs(waitMs) + waitMs;

/** A claim this run holds (of `E#claimed` or a takeover generation) since `since`; `next` is the generation to win once stale. */
interface Right {
	since: number;
	next: number;
}

/** One run's settling of its events: the store, its claim wait and what it wrote to remove after. */
interface Run {
	store: Store;
	waitMs: number;
	/** Per key: tokens and takeover markers this run wrote. */
	written: Map<string, string[]>;
}

/** One Process Only: per row and key, the runs of this process passing it on, one after another. */
const turns = new Map<string, Promise<unknown>>();

function inTurn<T>(id: string, task: () => Promise<T>): Promise<T> {
	const run = (turns.get(id) ?? Promise.resolve()).then(task, task);
	const tail = run.catch(() => undefined);
	turns.set(id, tail);
	void tail.then(() => turns.get(id) === tail && turns.delete(id));
	return run;
}

const note = (run: Run, key: string, ...values: string[]) =>
	run.written.set(key, [...(run.written.get(key) ?? []), ...values]);

/**
 * Passes still making sure their `E` holds after their run went on (queue mode): tests wait for
 * them; n8n does not (the worker's slot is free once the run ends).
 */
const holding = new Set<Promise<void>>();

/** Resolves once every pass of this process made sure of its record (or gave up). */
export async function passRecordsSettled(): Promise<void> {
	while (holding.size > 0) await Promise.allSettled([...holding]);
}

/** A promise that settles once, from outside. */
function decision() {
	let settle!: { resolve: (passes: boolean) => void; reject: (error: unknown) => void };
	const promise = new Promise<boolean>((resolve, reject) => (settle = { resolve, reject }));
	return { promise, ...settle };
}

/**
 * Records each key's `E#claimed`, calls `answered`, then passes on the keys this run may pass.
 * Returns the keys another run passed on. `waitMs` undefined: One Process Only (no waits). A
 * failing first call rejects before `answered`; a failure after it names the events. In queue
 * mode a key is passed on once its pass call wrote `E`; its checks (and the removal of the run's
 * values) go on after the run returns, so a run holds a worker's slot about two claim waits, as
 * before the early answer (docs/ledger.md, "The trigger's records").
 */
export async function settleEvents(
	context: IExecuteFunctions,
	store: Store,
	keys: string[],
	waitMs: number | undefined,
	answered: () => void,
): Promise<Set<string>> {
	const unique = [...new Set(keys)];
	const run: Run = { store, waitMs: waitMs ?? 0, written: new Map() };
	const rowId = `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
	let first: Promise<{ found: Set<string>; ms: number }>;
	let at = Date.now();
	const token = claimToken();
	if (waitMs === undefined) first = store.write(unique.map(claimedMarker));
	else {
		await store.warmUp();
		at = Date.now();
		first = store.write([...unique.map(claimedMarker), token]);
	}
	// Nothing is settled before the answer: a failing first call rejects before it.
	const gate = first.then((written) => {
		answered();
		return written;
	});
	let settling: Array<Promise<boolean>>;
	const decisions = unique.map(() => decision());
	if (waitMs === undefined) {
		// This process's store calls are serialized: a copy waits for the run before it, then passes
		// unless that run did (a key found claimed with no run here is a dead process's: taken at once).
		settling = unique.map(
			async (key) =>
				await inTurn(`${rowId}|${key}`, async () => {
					await gate;
					return await passOnce(run, key);
				}),
		);
	} else {
		const confirmed = gate.then(async ({ found, ms }) => {
			const fresh = unique.map(claimedMarker).filter((marker) => !found.has(marker));
			if (fresh.length === 0) return new Set<string>();
			// An error here leaves the claim unsure: as unresolved, the run goes on as a copy.
			const wrote = (more: string) => unique.forEach((key) => note(run, key, more));
			const held = await store.confirm(token, fresh, waitMs, ms, wrote).catch(() => undefined);
			return new Set(held?.ours ?? []);
		});
		settling = unique.map(async (key, index) => {
			const ours = (await confirmed).has(claimedMarker(key));
			note(run, key, token);
			const right = ours ? { since: at, next: 1 } : undefined;
			return await passClaimed(run, key, right, decisions[index].resolve);
		});
	}
	// A key is decided when its settling is, unless its pass call decided it before.
	settling.forEach((settle, index) =>
		settle.then(decisions[index].resolve, decisions[index].reject),
	);
	// A failing first call fails them all: the first call's error is the one thrown.
	for (const settle of [...settling, ...decisions.map((d) => d.promise)])
		settle.catch(() => undefined);
	await gate;
	const results = await Promise.allSettled(decisions.map((d) => d.promise));
	const after = Promise.allSettled(settling).then(async (settled) => {
		warnUnsure(context, unique, results, settled);
		await cleanUp(run, unique, settled);
	});
	if (waitMs === undefined) await after;
	else {
		const held = after.catch(() => undefined);
		holding.add(held);
		void held.then(() => holding.delete(held));
	}
	const failed = unique.filter((_, index) => results[index].status === 'rejected');
	if (failed.length > 0)
		throw notPassed(
			context,
			failed,
			results,
			waitMs === undefined ? undefined : triggerTakeoverWaitMs(waitMs),
		);
	return new Set(
		unique.filter(
			(_, index) => (results[index] as PromiseFulfilledResult<boolean>).value === false,
		),
	);
}

/** One Process Only: the pass call. False when another run passed the event. */
async function passOnce(run: Run, key: string): Promise<boolean> {
	const mark = passMarker(key);
	note(run, key, mark);
	const { found } = await patiently(async () => await run.store.write([key, mark]));
	return !found.has(key) || found.has(mark);
}

/**
 * Queue mode (claims): passes `key` on once this run holds a fresh right to, or finds another run
 * did. `decide(true)` as soon as its pass call wrote `E`: the event goes on then, and this goes on
 * until `E` held.
 */
async function passClaimed(
	run: Run,
	key: string,
	held: Right | undefined,
	decide: (passes: boolean) => void,
): Promise<boolean> {
	const mark = passMarker(key);
	note(run, key, mark);
	let wentOn: number | undefined;
	const wentOnNow = (passes: boolean) => {
		wentOn ??= Date.now();
		decide(passes);
	};
	let right = held;
	let next = 1;
	for (;;) {
		// Gone on: its record is made sure of with the patience a store call after the answer has.
		if (wentOn !== undefined && Date.now() - wentOn > POOL_PATIENCE_MS)
			throw new Error(`no check of its record held within ${POOL_PATIENCE_MS / 1000} s`);
		right ??= await asCopy(run, key, next);
		if (Date.now() - right.since < freshMs(run.waitMs)) {
			const until = right.since + passWindowMs(run.waitMs);
			const passed = await passHeld(run, key, mark, until, wentOnNow);
			if (passed !== undefined) return passed;
		}
		// Too late to pass as it is: a copy may be taking over. Win the next generation first.
		const taken = await takeOver(run, key, right.next);
		next = right.next + 1;
		right = taken;
	}
}

/**
 * The pass call, then its checks: `E` with this run's mark written (then `decide(true)`), and
 * found again at two checks a claim wait apart (written again when a check finds it gone, as
 * another process's write-back of the row drops it). Only then has `E` held: a later copy finds
 * it. True: passed by this run; false: another run's `E`; undefined: not held by `until` (a copy
 * may be taking over: the caller wins a takeover generation, and its next pass call finds its mark).
 */
async function passHeld(
	run: Run,
	key: string,
	mark: string,
	until: number,
	decide: (passes: boolean) => void,
) {
	let checks = 0;
	for (let call = 0; ; call++) {
		// A retry of a pass call whose first try wrote finds its own mark: still this run's.
		const written = await patiently(async () =>
			Date.now() >= until ? undefined : await run.store.write([key, mark]),
		);
		if (written === undefined || Date.now() >= until) return undefined;
		if (written.found.has(key) && !written.found.has(mark)) return false;
		decide(true);
		// Checks count a claim wait after a write; a call as long as the wait may have written over the row.
		const found = call > 0 && written.found.has(key) && written.ms < run.waitMs;
		checks = found ? checks + 1 : 0;
		if (checks >= CHECKS) return true;
		await sleep(run.waitMs);
	}
}

/**
 * Another run holds `E#claimed`: waits for it to go (that run passed the event on: then this one
 * claims it and finds `E`), or claims a takeover generation after the takeover wait, from `g` on.
 */
async function asCopy(run: Run, key: string, g: number): Promise<Right> {
	const claimed = claimedMarker(key);
	let since = Date.now();
	for (let generation = g; ; ) {
		await sleep(run.waitMs);
		if (Date.now() - since >= triggerTakeoverWaitMs(run.waitMs)) {
			const taken = await takeOver(run, key, generation);
			if (taken) return taken;
			generation += 1;
			since = Date.now();
			continue;
		}
		const token = claimToken();
		note(run, key, token);
		const at = Date.now();
		const { found, ms } = await patiently(async () => await run.store.write([claimed, token]));
		if (found.has(claimed)) continue;
		const held = await run.store
			.confirm(token, [claimed], run.waitMs, ms, (more) => note(run, key, more))
			.catch(() => undefined);
		if (held?.ours.includes(claimed)) return { since: at, next: generation };
		since = Date.now();
	}
}

/** Claims takeover generation `g` of `key`; undefined when another run has it, or it is unsure. */
async function takeOver(run: Run, key: string, g: number): Promise<Right | undefined> {
	const marker = eventTakeoverMarker(key, g);
	const at = Date.now();
	const held = await run.store
		.claim([marker], run.waitMs, (token) => note(run, key, token))
		.catch(() => undefined);
	if (!held?.ours.includes(marker)) return undefined;
	note(run, key, marker);
	return { since: at, next: g + 1 };
}

/**
 * After `E` is in the row, its `E#claimed` and this run's values go (the row keeps about one
 * value per event). A key not settled keeps its `E#claimed`: a copy then waits the takeover wait.
 */
async function cleanUp(run: Run, keys: string[], results: Array<PromiseSettledResult<boolean>>) {
	const done = keys.filter((_, index) => results[index].status === 'fulfilled');
	const values = [
		...new Set(done.flatMap((key) => [claimedMarker(key), ...(run.written.get(key) ?? [])])),
	];
	// Leftovers cost a later copy a wait, not a second pass: an error here fails nothing.
	if (values.length > 0) await run.store.forget(values).catch(() => undefined);
}
