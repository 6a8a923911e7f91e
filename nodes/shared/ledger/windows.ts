/**
 * Windows: a run's keys are reserved a window at a time, just before the window's first item is
 * sent, so that one store call covers a window; with claims, keys are claimed ahead in chunks.
 * How the window is sized and why: docs/ledger.md ("One run of a money-moving node").
 */
import type { Ledger } from './ledger';
import type { Verdict } from './states';

/** An item as the ledger sees it: its place in the node's input, its key, and Allow Resend. */
export interface LedgerItem {
	itemIndex: number;
	key: string;
	allowResend: boolean;
	/** Where a derived key's item stands (ledger.ts, places): found there, the item was sent before. */
	place?: string;
}

/** The store's time per item that the window size aims at, in ms. */
export const STORE_MS_PER_ITEM = 0.5;
/**
 * A store call this long or longer makes the next window larger (below it, the time is mostly the
 * database's round trip, e.g. PostgreSQL under load in queue mode, not the row's size).
 */
export const SLOW_CALL_MS = 25;
/** How many of the latest store calls must all be slow before a window grows. */
export const SLOW_CALLS = 3;
/** A window is at most this fraction of the run's items (1/RUN_SHARE), or Items per Batch if more. */
export const RUN_SHARE = 20;
/**
 * The largest window. A window is reserved ahead of the one being sent, so a Retry after a crash
 * may report up to a window and Items per Batch more with an unknown outcome.
 */
export const MAX_WINDOW = 1000;

/**
 * Queue mode: the most items marked sending together (never under Items per Batch). A worker that
 * dies leaves at most this window's rows with an unknown outcome: its requests were leaving, and
 * their accepted markers are written with the next window's marking (issue #64, point 4).
 */
export const SENDING_WINDOW = 50;

/** Queue mode: the most items one claim covers. */
export const CLAIM_CHUNK = 1000;
/** Queue mode: how many chunks are claimed ahead of the item asking. */
const CHUNKS_AHEAD = 2;

/** Queue mode: items marked sending together, right before the first of them leaves. */
interface SendingWindow {
	positions: number[];
	keys: string[];
	/** The window before it: every item of it is done before this one is marked. */
	before?: SendingWindow;
	/** The marking: the keys a Retry took over meanwhile. */
	marked?: Promise<Set<string>>;
}

export function windows(ledger: Ledger, items: LedgerItem[], inFlight: number) {
	const positionOf = new Map(items.map((item, position) => [item.itemIndex, position]));
	const firstOfKey = new Map<string, number>();
	/** Positions whose key came earlier in the run, with the position of that first item. */
	const repeatOf = new Map<number, number>();
	items.forEach((item, position) => {
		const first = firstOfKey.get(item.key);
		if (first === undefined) firstOfKey.set(item.key, position);
		else repeatOf.set(position, first);
	});
	const verdicts = new Map<number, Promise<Verdict>>();
	const done = new Map<number, () => void>();
	const finishedAt = new Map<number, Promise<void>>();
	const started = new Set<number>();
	let reservedUpTo = 0;
	/** The durations of the latest store calls, newest last. */
	const callMs: number[] = [];
	const largestWindow = Math.min(
		MAX_WINDOW,
		Math.max(inFlight, Math.ceil(items.length / RUN_SHARE)),
	);
	const sendingWindow = Math.max(inFlight, Math.min(SENDING_WINDOW, largestWindow));
	/** Store calls one after another; the first failure fails every later reservation. */
	let calls: Promise<unknown> = Promise.resolve();
	let failure: { error: unknown } | undefined;
	/** Queue mode (known at the first item): claims ahead, windows marked sending. */
	let claiming: Promise<boolean> | undefined;
	/** Queue mode: the window of each position, to be marked sending before its first item leaves. */
	const windowOf = new Map<number, SendingWindow>();
	let lastWindow: SendingWindow | undefined;

	const resendOf = (positions: number[]) =>
		new Set(positions.filter((p) => items[p].allowResend).map((p) => items[p].key));
	const placesOf = (positions: number[]) =>
		new Map(
			positions.flatMap((p) => {
				const { key, place } = items[p];
				return place === undefined ? [] : [[key, place] as const];
			}),
		);
	/**
	 * Reserves the keys at `positions` after every reservation before it; `ahead` (queue mode): the
	 * next reservation starts once this one made its first store call, not once its claim held.
	 */
	const reserveInOrder = (positions: number[], ahead = false): Promise<Map<string, Verdict>> => {
		let written!: () => void;
		const firstCall = new Promise<void>((resolve) => (written = resolve));
		const call = calls.then(async () => {
			if (failure) throw failure.error;
			const callStart = Date.now();
			const result = await ledger.reserve(
				positions.map((p) => items[p].key),
				resendOf(positions),
				written,
				placesOf(positions),
			);
			callMs.push(Date.now() - callStart);
			if (callMs.length > SLOW_CALLS) callMs.shift();
			return result;
		});
		const over = call.catch((error: unknown) => {
			failure ??= { error };
		});
		calls = ahead ? Promise.race([firstCall, over]) : over;
		return call;
	};
	// Only calls that are all slow (a large row) make windows larger: a database's round trip, or
	// a moment of load, does not.
	const windowSize = () => {
		const slowest = callMs.length < SLOW_CALLS ? 0 : Math.min(...callMs);
		if (slowest < SLOW_CALL_MS) return inFlight;
		return Math.min(largestWindow, Math.max(inFlight, Math.ceil(slowest / STORE_MS_PER_ITEM)));
	};
	/** The next positions that are not repeats, at most `size` of them. */
	const nextPositions = (size: number) => {
		const positions: number[] = [];
		while (reservedUpTo < items.length && positions.length < size) {
			if (!repeatOf.has(reservedUpTo)) positions.push(reservedUpTo);
			reservedUpTo++;
		}
		return positions;
	};
	const reserve = (positions: number[], ahead: boolean) => {
		if (positions.length === 0) return;
		const call = reserveInOrder(positions, ahead);
		for (const p of positions) {
			const verdict = call.then((result) => result.get(items[p].key)!);
			// Positions nobody asks for (the run stopped first) must not reject unhandled.
			verdict.catch(() => undefined);
			verdicts.set(p, verdict);
		}
	};
	/** Queue mode: chunks up to CHUNKS_AHEAD past `position`, each split into windows. */
	const claimAhead = (position: number) => {
		while (reservedUpTo < items.length && reservedUpTo < position + CHUNKS_AHEAD * CLAIM_CHUNK) {
			const chunk = nextPositions(CLAIM_CHUNK);
			for (let at = 0; at < chunk.length; at += sendingWindow) {
				const positions = chunk.slice(at, at + sendingWindow);
				const keys = positions.map((p) => items[p].key);
				lastWindow = { positions, keys, before: lastWindow };
				for (const p of positions) windowOf.set(p, lastWindow);
			}
			reserve(chunk, true);
		}
	};
	/**
	 * Queue mode: marks the window sending (once), after every reservation so far and once every
	 * item of the window before it is done, so that its items leave right after their marking
	 * (few rows are ever marked sending and not yet sent); the keys a Retry took over meanwhile.
	 */
	const markSending = (window: SendingWindow) =>
		(window.marked ??= calls.then(async () => {
			await Promise.all((window.before?.positions ?? []).map(doneWith));
			if (failure) throw failure.error;
			const marking = ledger.markSending(window.keys);
			// A failed marking fails every later window too (as a failed reservation does).
			marking.catch((error: unknown) => {
				failure ??= { error };
			});
			return await marking;
		}));
	/** Resolves when the item at `position` is done. */
	const doneWith = (position: number) => {
		let promise = finishedAt.get(position);
		if (!promise) {
			promise = new Promise<void>((resolve) => done.set(position, resolve));
			finishedAt.set(position, promise);
		}
		return promise;
	};

	return {
		/** Waits until the item's key is recorded; what it is (new, or sent by an earlier run). */
		verdictFor: async (itemIndex: number): Promise<Verdict> => {
			const position = positionOf.get(itemIndex)!;
			const first = repeatOf.get(position);
			if (first !== undefined) {
				await doneWith(first);
				const result = await reserveInOrder([position]);
				const takenOver = await ledger.markSending([items[position].key]);
				started.add(position);
				return takenOver.has(items[position].key) ? 'concurrent' : result.get(items[position].key)!;
			}
			claiming ??= ledger.claimWait().then((wait) => wait !== undefined);
			if (await claiming) {
				claimAhead(position);
				const verdict = await verdicts.get(position)!;
				const takenOver = await markSending(windowOf.get(position)!);
				started.add(position);
				return takenOver.has(items[position].key) ? 'concurrent' : verdict;
			}
			while (reservedUpTo <= position) reserve(nextPositions(windowSize()), false);
			// The next window is reserved while this one's requests are out, not after them: its
			// store call then holds up no item (docs/ledger.md, "One run of a money-moving node").
			if (reservedUpTo - position <= inFlight) reserve(nextPositions(windowSize()), false);
			started.add(position);
			return await verdicts.get(position)!;
		},
		/** The item is done (sent, refused, failed or already submitted). */
		finished: (itemIndex: number) => {
			const position = positionOf.get(itemIndex)!;
			void doneWith(position);
			done.get(position)!();
		},
		/** Releases the keys of items reserved new but never started (the run stopped before them). */
		releaseUnsent: async () => {
			await calls;
			await Promise.all(
				[...verdicts.values()].map(async (verdict) => await verdict.catch(() => undefined)),
			);
			const unsent = [...verdicts.keys()].filter((p) => !started.has(p));
			for (const p of unsent) {
				const verdict = await verdicts.get(p)!.catch(() => undefined);
				if (verdict === 'new') ledger.release(items[p].key);
			}
		},
	};
}
