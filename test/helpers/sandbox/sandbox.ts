import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../../tooling/sandbox';
import { runWalletNode, type RunOptions, type RunResult, type TestCredentials } from '../n8n/runNode';

export interface SandboxFixture {
	sandbox: Sandbox;
	credentials: TestCredentials;
	/** Runs the Wallet Payments node once with these parameters against the sandbox. */
	run(
		parameters: INodeParameters,
		options?: Omit<RunOptions, 'parameters' | 'credentials'> & { credentials?: Partial<TestCredentials> },
	): Promise<RunResult>;
	/** Requests the sandbox received on its API (not its test controls). */
	apiRequests(): Sandbox['requests'];
}

/**
 * One sandbox per test file, fresh state and an empty request log before each test.
 * Use inside a describe block or at the top of a test file.
 */
export function useSandbox(options?: SandboxOptions): SandboxFixture {
	const fixture = {} as SandboxFixture;
	beforeAll(async () => {
		fixture.sandbox = await startSandbox(options);
		fixture.credentials = { apiKey: fixture.sandbox.apiKey, baseUrl: fixture.sandbox.url };
	});
	beforeEach(() => fixture.sandbox.reset());
	afterAll(async () => await fixture.sandbox?.close());
	fixture.run = async (parameters, runOptions = {}) =>
		await runWalletNode({
			...runOptions,
			parameters,
			credentials: { ...fixture.credentials, ...runOptions.credentials },
		});
	fixture.apiRequests = () => fixture.sandbox.requests.filter((request) => request.path.startsWith('/api/'));
	return fixture;
}
