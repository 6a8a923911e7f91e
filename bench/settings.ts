/**
 * The bench's fixed sizes and its environment switches (see bench/run.ts for what each measures).
 * Nothing here changes while the bench runs: the switches are read once, in main, into a
 * `Settings` that travels in the bench's state (bench/figures.ts).
 */
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '..');
export const RESULTS_FILE = path.join(ROOT, 'bench', 'results.json');
export const GETS = 200;
export const PAYOUTS = 100;
export const SMALL = 1_000;
export const LARGE = 10_000;
export const SLOW_MS = 100;
export const JITTER = { fixedMs: 50, jitterMs: 100 };
export const SWEEP = [1, 5, 10, 20, 50];
/** The settlement run: each payout reaches its final status this long after it was sent. */
export const SETTLE_DELAY_MS = 5_000;
export const LINK_ONE_WAY_MS = 10;
export const LINK_GETS = 30;

/** The environment switches, as read once at start. */
export interface Settings {
	/** BENCH_TRIAL=1: one run of everything (not medians). */
	trial: boolean;
	/** BENCH_RUNS (at least 5; 1 with BENCH_TRIAL). */
	runs: number;
	/** BENCH_QUIET: busy share of the CPUs to wait below. */
	quiet: number;
	/** BENCH_QUIET_WAIT: longest wait, s. */
	quietWait: number;
	/** BENCH_ONLY=payroll: the payroll part alone, merged into the existing results.json. */
	only?: string;
	/** BENCH_SKIP_PAYROLL=1. */
	skipPayroll: boolean;
	/** BENCH_SKIP_N8N (any value): package and raw figures only. */
	skipN8n: boolean;
	/** BENCH_PROFILE=<folder>: a V8 CPU profile of every n8n process. */
	profile?: string;
	/** BENCH_PAYROLL_N: the payroll sizes at 0 ms per answer. */
	payrollSizes: number[];
	/** BENCH_PAYROLL_SLOW_N: the payroll's size at 100 ms per answer. */
	payrollSlowN: number;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
	const trial = env.BENCH_TRIAL === '1';
	return {
		trial,
		runs: trial ? 1 : Math.max(5, Number(env.BENCH_RUNS ?? 5) || 5),
		quiet: Number(env.BENCH_QUIET ?? 0.25),
		quietWait: Number(env.BENCH_QUIET_WAIT ?? 120),
		only: env.BENCH_ONLY?.trim() || undefined,
		skipPayroll: env.BENCH_SKIP_PAYROLL === '1',
		skipN8n: Boolean(env.BENCH_SKIP_N8N),
		profile: env.BENCH_PROFILE || undefined,
		payrollSizes: (env.BENCH_PAYROLL_N ?? '2000,15000,50000')
			.split(',')
			.map((n) => Number(n.trim()))
			.filter((n) => Number.isInteger(n) && n > 0),
		payrollSlowN: Number(env.BENCH_PAYROLL_SLOW_N ?? 2_000) || 2_000,
	};
}
