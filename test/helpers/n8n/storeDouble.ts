/**
 * A double of n8n's de-duplication store for the ledger's own tests (issue #30, point 3), with a
 * minimal IExecuteFunctions over it: no node, no n8n-core, no sandbox server.
 *
 * n8n keeps one row per workflow and node, and a store call reads that row whole, changes it and
 * writes it back whole, without a lock. The double does the same, and can be told to lose updates
 * as n8n does across processes:
 * - `writeOver`: another process's call read the row when this call did and wrote it back after
 *   this one (a stale write-back): this call's values are gone, though its answer said recorded.
 * - `hold` / `readToWriteMs`: a call reads the row, then waits (for the test, or some ms) before it
 *   writes it back; calls of other processes meanwhile are written over by it.
 * - `limit` / `dropOldest`: the oldest values go, as n8n's `maxEntries` drops them.
 *
 * store.ts serializes every store call of one JS process through a module-level queue, so two
 * "processes" are two instances of the ledger's modules (`aProcess`), each with its own queue.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';

import type * as LedgerModule from '../../../nodes/shared/ledger';

export type Ledger = typeof LedgerModule;

export interface StoreCall {
	kind: 'record' | 'remove' | 'count';
	/** The process (context) that made the call. */
	process: string;
	values: string[];
	/** record: the values the call found in the row as it read it (its `processed` answer). */
	found: string[];
	/** Whether the call has written the row back. */
	written: boolean;
	/** When the call was made (Date.now(): fake time under jest's fake timers). */
	at: number;
}

type Match = (call: StoreCall) => boolean;

export interface Hold {
	/** Resolves once the held call has read the row. */
	reached: Promise<void>;
	/** Lets the held call write back the row as it read it (plus its own values). */
	land(): void;
}

export interface ContextOptions {
	process?: string;
	workflowId?: string;
	nodeId?: string;
	/** The credential's Queue Mode: several n8n processes share the store. */
	queueMode?: boolean;
	claimWaitMs?: number;
	/** context.getMode(): 'retry' for a Retry of a failed execution. */
	mode?: string;
	/** context.getExecutionId(); none by default. */
	executionId?: string;
}

const ROW = 'wf-1|node-1';
const isProbe = (values: unknown[]) => values.length > 0 && values.every((value) => String(value).startsWith('n8n-probe:'));
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

export class StoreDouble {
	readonly rows = new Map<string, string[]>();
	readonly calls: StoreCall[] = [];
	/** How long a call waits before it reads the row (a connection, a busy database). */
	latency: (call: StoreCall, index: number) => number = () => 0;
	/** How long a call takes between its read and its write. */
	readToWriteMs: (call: StoreCall) => number = () => 0;
	/** n8n's `maxEntries` as the double applies it (the ledger asks for 620,000): oldest first out. */
	limit: number | undefined;
	private readonly holds: Array<{ match: Match; reached: () => void; landed: Promise<void> }> = [];
	private readonly overs: Array<{ match: Match; times: number; own: string[] }> = [];
	private readonly failures: Array<{ match: Match; times: number; error: Error }> = [];

	/** One node's row, oldest first. */
	row(workflowId = 'wf-1', nodeId = 'node-1'): string[] {
		return [...(this.rows.get(`${workflowId}|${nodeId}`) ?? [])];
	}

	/** Values recorded before (an earlier run, another process): appended to the row. */
	seed(values: string[], row = ROW): void {
		this.rows.set(row, [...(this.rows.get(row) ?? []), ...values]);
	}

	/** Drops the row's `count` oldest values, as n8n does beyond `maxEntries`. */
	dropOldest(count: number, row = ROW): void {
		this.rows.set(row, (this.rows.get(row) ?? []).slice(count));
	}

	/** The values of each record call (of one process), in order. */
	records(process?: string): string[][] {
		return this.calls
			.filter((call) => call.kind === 'record' && (process === undefined || call.process === process))
			.map((call) => call.values);
	}

	/**
	 * The next `times` record calls matching are written over: another process's call read the row
	 * when the matching call did, and writes it back (with `own`) right after the matching call wrote.
	 */
	writeOver(match: Match, { times = 1, own = [] as string[] } = {}): void {
		this.overs.push({ match, times, own });
	}

	/** The next record call matching reads the row, then waits for `land()` before it writes. */
	hold(match: Match): Hold {
		let reached!: () => void;
		let land!: () => void;
		const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
		const landed = new Promise<void>((resolve) => (land = resolve));
		this.holds.push({ match, reached, landed });
		return { reached: reachedPromise, land };
	}

	/** The next `times` record calls matching fail with `error` (writing nothing). */
	fail(match: Match, error: Error, times = 1): void {
		this.failures.push({ match, times, error });
	}

	private take<T extends { match: Match; times?: number }>(list: T[], call: StoreCall): T | undefined {
		const index = list.findIndex((entry) => entry.match(call));
		if (index === -1) return undefined;
		const entry = list[index];
		if (entry.times === undefined || --entry.times <= 0) list.splice(index, 1);
		return entry;
	}

	private async start(call: StoreCall): Promise<void> {
		const index = this.calls.push(call) - 1;
		const ms = this.latency(call, index);
		if (ms > 0) await sleep(ms);
	}

	private async record(row: string, call: StoreCall, maxEntries: number | undefined) {
		await this.start(call);
		const failure = this.take(this.failures, call);
		if (failure) throw failure.error;
		// n8n reads the row…
		const read = [...(this.rows.get(row) ?? [])];
		const before = new Set(read);
		call.found = call.values.filter((value) => before.has(value));
		const held = this.take(this.holds, call);
		if (held) {
			held.reached();
			await held.landed;
		}
		const gap = this.readToWriteMs(call);
		if (gap > 0) await sleep(gap);
		// …and writes it back whole: whatever another call wrote in between is gone.
		const written = [...read, ...call.values.filter((value) => !before.has(value))];
		const limit = this.limit ?? maxEntries;
		this.rows.set(row, limit === undefined ? written : written.slice(Math.max(0, written.length - limit)));
		call.written = true;
		const over = this.take(this.overs, call);
		if (over) this.rows.set(row, [...read, ...over.own]);
		return {
			new: call.values.filter((value) => !before.has(value)),
			processed: call.found,
		};
	}

	private async remove(row: string, call: StoreCall) {
		await this.start(call);
		const drop = new Set(call.values);
		this.rows.set(
			row,
			(this.rows.get(row) ?? []).filter((value) => !drop.has(value)),
		);
		call.written = true;
	}

	/** A node's context in one process, over this store, with the Wallet Payments credential. */
	context(options: ContextOptions = {}): IExecuteFunctions {
		const { process = 'A', workflowId = 'wf-1', nodeId = 'node-1', queueMode = false, claimWaitMs, mode = 'trigger', executionId } = options;
		const row = `${workflowId}|${nodeId}`;
		const call = (kind: StoreCall['kind'], values: unknown[] = []): StoreCall => ({
			kind,
			process,
			values: values.map(String),
			found: [],
			written: false,
			at: Date.now(),
		});
		return {
			helpers: {
				// The capacity probe (capacity.ts, once per process and row) is answered as a database
				// with room answers it, and kept out of the calls and rows these tests look at; a
				// database without room: test/nodes/shared/ledger/capacity.test.ts.
				checkProcessedAndRecord: async (values: unknown[], _scope: string, opts: { maxEntries?: number }) =>
					isProbe(values)
						? { new: values, processed: [] }
						: await this.record(row, call('record', values), opts.maxEntries),
				removeProcessed: async (values: unknown[]) => {
					if (!isProbe(values)) await this.remove(row, call('remove', values));
				},
				getProcessedDataCount: async () => {
					await this.start(call('count'));
					return (this.rows.get(row) ?? []).length;
				},
			},
			getNode: () => ({ id: nodeId, name: 'Pay' }),
			getWorkflow: () => ({ id: workflowId }),
			getMode: () => mode,
			getExecutionId: () => executionId,
			getCredentials: async (type: string) => {
				if (type !== 'walletPaymentsApi') throw new Error(`no credential ${type}`);
				return { processes: queueMode ? 'several' : 'one', ...(claimWaitMs === undefined ? {} : { claimWaitMs }) };
			},
		} as unknown as IExecuteFunctions;
	}
}

/**
 * The ledger as one n8n process has it: its own instance of the ledger's modules, so its own queue
 * of store calls and its own warmed-up rows (store.ts). n8n-workflow is shared (loading it again is
 * slow, and it holds no state the ledger uses). `markOnReserve`: ledgers mark what they reserve
 * sending at once (sendingAtOnce); the windows mark it themselves.
 */
export async function aProcess({ markOnReserve = true } = {}): Promise<Ledger> {
	// jest isolates one module registry at a time: loads are made one after another.
	const load = loading.then(async () => {
		let loaded: Ledger | undefined;
		await jest.isolateModulesAsync(async () => {
			jest.doMock('n8n-workflow', () => workflow);
			loaded = await import('../../../nodes/shared/ledger');
		});
		return markOnReserve ? sendingAtOnce(loaded!) : loaded!;
	});
	loading = load.catch(() => undefined);
	return await load;
}

/**
 * Ledgers of a run that sends what it reserves at once: `reserve` marks the keys it reserved
 * sending right away (ledger.markSending), as the windows do right before a window's first
 * request leaves.
 */
function sendingAtOnce(module: Ledger): Ledger {
	return {
		...module,
		openLedger: (context, mark) => {
			const ledger = module.openLedger(context, mark);
			return {
				...ledger,
				reserve: async (keys, resend, written) => {
					const verdicts = await ledger.reserve(keys, resend, written);
					await ledger.markSending(keys);
					return verdicts;
				},
			};
		},
	};
}
let loading: Promise<unknown> = Promise.resolve();

/**
 * Before each test of the file (or describe block): jest's fake timers from `now`, an empty store
 * double and the ledger of one n8n process (aProcess), handed to `use`; real timers after it.
 */
export function freshEachTest(
	use: (store: StoreDouble, ledgers: Ledger) => void,
	{ now = 0, markOnReserve = true } = {},
): void {
	beforeEach(async () => {
		jest.useFakeTimers({ now });
		use(new StoreDouble(), await aProcess({ markOnReserve }));
	});
	afterEach(() => jest.useRealTimers());
}

/** With jest's fake timers: runs timers, one at a time, until `promise` settles. */
export async function settled<T>(promise: Promise<T>): Promise<T> {
	let done = false;
	void promise.then(
		() => (done = true),
		() => (done = true),
	);
	for (let tick = 0; tick < 10 && !done; tick++) await Promise.resolve();
	for (let step = 0; !done; step++) {
		if (step > 10_000) throw new Error('settled: still pending after 10,000 timers');
		await jest.advanceTimersToNextTimerAsync();
	}
	return await promise;
}

/** Whether `promise` is still pending (after the microtasks and due timers so far). */
export async function isPending(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(
		() => (done = true),
		() => (done = true),
	);
	await jest.advanceTimersByTimeAsync(0);
	return !done;
}

/** A token of a claim (states.ts claimToken). */
export const isToken = (value: string) => value.startsWith('n8n-claim:');
