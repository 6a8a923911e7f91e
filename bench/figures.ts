/**
 * The figures the bench reports, and the one state a bench run carries: `BenchState`, created in
 * main (bench/run.ts) and passed down to every part that records a figure, logs, waits for a
 * quiet machine or keeps a raw client's result.
 */
import { waitForQuiet } from './quiet';
import type { ServiceStats } from './sandboxes';
import type { Settings } from './settings';

/** One raw client run (bench/raw.ts). */
export interface RawResult {
	ms: number;
	requests: number;
	records: number;
	maxRssKb?: number;
	stats: ServiceStats;
	/** n8n-transport.js only: connections still open at the service after the last answer. */
	openAfter?: number;
}

export interface Target {
	/** The figure must be at most `max` and at least `min`. */
	max?: number;
	min?: number;
	text: string;
}

export interface Figure {
	section: string;
	name: string;
	value: number | null;
	unit: string;
	/** Every run's value (the figure is their median). */
	runs?: number[];
	target?: Target;
	met?: boolean;
	note?: string;
}

/** How busy the machine was before one measurement (other processes: the bench is idle then). */
export interface Condition {
	what: string;
	busy?: number;
	waitedSeconds: number;
}

/** What one bench run collects as it goes. */
export interface BenchState {
	settings: Settings;
	/** Date.now() at the start: the log's clock and the bench's duration. */
	started: number;
	/** Every figure, in the order measured (the printed tables keep it). */
	figures: Figure[];
	/** Notes printed after the tables and written to results.json. */
	notes: string[];
	/** How busy other processes kept the CPUs before each measurement. */
	conditions: Condition[];
	/** Every raw client's runs by measurements key (raw.get.slow.default, transport.all.fast, …). */
	rawRuns: Record<string, RawResult[]>;
}

export function newBenchState(settings: Settings): BenchState {
	return { settings, started: Date.now(), figures: [], notes: [], conditions: [], rawRuns: {} };
}

export const isPayroll = (figure: { section: string }) => figure.section.startsWith('Payroll');

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function round(value: number, digits = 2): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

export function medianOf(runs: Array<{ ms: number }> | undefined): number {
	return runs && runs.length ? median(runs.map((r) => r.ms)) : NaN;
}

export function record(state: BenchState, figure: Figure): Figure {
	if (figure.value !== null && !Number.isFinite(figure.value)) figure.value = null;
	if (figure.target && figure.value !== null) {
		figure.met = (figure.target.max === undefined || figure.value <= figure.target.max) && (figure.target.min === undefined || figure.value >= figure.target.min);
	}
	state.figures.push(figure);
	return figure;
}

export function log(state: BenchState, message: string): void {
	const elapsed = ((Date.now() - state.started) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${elapsed} s] ${message}\n`);
}

/** Waits until other processes leave the CPUs mostly idle (bench/quiet.ts), and notes how busy they were. */
export async function quiet(state: BenchState, what: string): Promise<void> {
	const { quiet: threshold, quietWait } = state.settings;
	const check = await waitForQuiet(threshold, quietWait, (busy) => log(state, `  waiting: other processes keep ${Math.round(busy * 100)} % of the CPUs busy`));
	state.conditions.push({ what, busy: check.busy === undefined ? undefined : round(check.busy), waitedSeconds: check.waitedSeconds });
}

/**
 * How busy other processes kept the CPUs before these measurements (`otherLoad` in
 * results.json); `overThreshold` counts the measurements over the threshold.
 */
export function loadSummary(settings: Settings, list: Condition[]): { note: string; median: number | null; max: number | null; waitedSeconds: number; overThreshold: number } {
	const busy = list.map((c) => c.busy).filter((b): b is number => b !== undefined);
	return {
		note: `share of the CPUs other processes kept busy just before each measurement (the bench waited for ≤ ${settings.quiet}, at most ${settings.quietWait} s)`,
		median: busy.length ? round(median(busy)) : null,
		max: busy.length ? round(Math.max(...busy)) : null,
		waitedSeconds: list.reduce((sum, c) => sum + c.waitedSeconds, 0),
		overThreshold: list.filter((c) => c.busy !== undefined && c.busy > settings.quiet).length,
	};
}

/** Over the threshold: the names of those measurements (the whole bench's `otherLoad`). */
export function overThresholdNames(settings: Settings, list: Condition[]): string[] {
	return list.filter((c) => c.busy !== undefined && c.busy > settings.quiet).map((c) => c.what);
}
