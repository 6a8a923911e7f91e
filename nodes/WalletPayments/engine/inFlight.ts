/** Runs tasks with at most `most` of them running at once; the others wait their turn, in order. */
export type InFlight = <T>(task: () => Promise<T>) => Promise<T>;

export function inFlight(most: number): InFlight {
	let running = 0;
	const waiting: Array<() => void> = [];
	const next = () => {
		running--;
		waiting.shift()?.();
	};
	return async (task) => {
		if (running >= most) await new Promise<void>((resolve) => waiting.push(resolve));
		running++;
		try {
			return await task();
		} finally {
			next();
		}
	};
}
