/** What most e2e files share: a sandbox in this process and an n8n with the credential. */
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { N8n, type N8nOptions } from './n8n';

/** e2e files run only under jest.e2e.config.js (its globalSetup installs n8n and packs). */
export const describeE2E: jest.Describe = process.env.WALLET_E2E ? describe : describe.skip;

export interface Stack {
	sandbox: Sandbox;
	n8n: N8n;
}

/**
 * Starts the sandbox (127.0.0.1, a free port) and prepares an n8n user folder with the package
 * installed and the Wallet Payments credential imported (pointing at the sandbox).
 */
export async function startStack(
	sandboxOptions: SandboxOptions = {},
	n8nOptions: N8nOptions = {},
): Promise<Stack> {
	const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, ...sandboxOptions });
	let n8n: N8n | undefined;
	try {
		n8n = await N8n.create(n8nOptions);
		await n8n.importWalletCredential({
			apiKey: sandbox.apiKey,
			baseUrl: sandbox.url,
			webhookSecret: sandboxOptions.webhook?.secret ?? 'whsec_sandbox',
		});
		return { sandbox, n8n };
	} catch (error) {
		await n8n?.dispose();
		await sandbox.close();
		throw error;
	}
}

export async function stopStack(stack: Partial<Stack> | undefined): Promise<void> {
	if (!stack) return;
	await stack.n8n?.dispose();
	await stack.sandbox?.close();
}

/** The API requests the sandbox received (path and method), for compact assertions. */
export function calls(sandbox: Sandbox): string[] {
	return sandbox.requests.map((r) => `${r.method} ${r.path}`);
}
