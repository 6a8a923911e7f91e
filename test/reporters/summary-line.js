/**
 * Prints one plain closing line, "jest: N passed, N failed[, N skipped]", after the run, so a
 * reader that does not know jest's own summary can still count the tests.
 */
class SummaryLineReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const line = `jest: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
		process.stdout.write(`\n${line}\n`);
	}
}

module.exports = SummaryLineReporter;
