/** Polls until `check` holds (work the sandbox does on a timer, after its answer). */
export async function waitFor(check: () => boolean, timeoutMs = 1000, everyMs = 5): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}
