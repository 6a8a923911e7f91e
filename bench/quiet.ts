/**
 * The benchmark shares its machine: before each measurement it waits until the other processes
 * leave the CPUs mostly idle (Linux /proc/stat), and reports how busy they were.
 */
import * as fs from 'fs';

function cpuTimes(): { busy: number; total: number } | undefined {
	try {
		const [line] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
		const fields = line.trim().split(/\s+/).slice(1).map(Number);
		const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
		const total = fields.reduce((sum, value) => sum + value, 0);
		return { busy: total - idle, total };
	} catch {
		return undefined;
	}
}

/** The share of all CPUs busy over `ms` (0 to 1); undefined where /proc/stat is missing. */
export async function busyShare(ms = 1000): Promise<number | undefined> {
	const before = cpuTimes();
	await new Promise((resolve) => setTimeout(resolve, ms));
	const after = cpuTimes();
	if (!before || !after || after.total === before.total) return undefined;
	return (after.busy - before.busy) / (after.total - before.total);
}

export interface QuietCheck {
	/** Share of the CPUs busy in the last sample before going on. */
	busy?: number;
	waitedSeconds: number;
}

/**
 * Waits (sampling 1 s at a time) until at most `threshold` of the CPUs are busy, for at most
 * `maxWaitSeconds`; this process must be idle meanwhile.
 */
export async function waitForQuiet(threshold: number, maxWaitSeconds: number, onWait?: (busy: number) => void): Promise<QuietCheck> {
	const started = Date.now();
	let busy = await busyShare();
	while (busy !== undefined && busy > threshold && (Date.now() - started) / 1000 < maxWaitSeconds) {
		onWait?.(busy);
		await new Promise((resolve) => setTimeout(resolve, 4000));
		busy = await busyShare();
	}
	return { busy, waitedSeconds: Math.round((Date.now() - started) / 1000) };
}
