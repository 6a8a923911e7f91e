import type { RecordedRequest } from '../../../tooling/sandbox';

/** The most requests the sandbox was answering at the same moment (from their start and end). */
export function maxInFlight(requests: RecordedRequest[]): number {
	const edges = requests.flatMap((r) => [
		[r.startedMs!, 1],
		[r.finishedMs!, -1],
	]);
	edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let current = 0;
	let most = 0;
	for (const [, step] of edges) most = Math.max(most, (current += step));
	return most;
}
