/**
 * `npm run sandbox`: runs the sandbox standalone until SIGINT/SIGTERM.
 *
 * Flags (or environment variables):
 *   --port <n>                 SANDBOX_PORT                default 4010
 *   --host <h>                 SANDBOX_HOST                default 127.0.0.1
 *   --api-key <key>            SANDBOX_API_KEY             default sk_test_sandbox
 *   --seed-customers <n>       SANDBOX_SEED_CUSTOMERS      default 0
 *   --seed-beneficiaries <n>   SANDBOX_SEED_BENEFICIARIES  default 0
 *   --webhook-url <url>        SANDBOX_WEBHOOK_URL
 *   --webhook-secret <s>       SANDBOX_WEBHOOK_SECRET      default whsec_sandbox
 *   --webhook-header <name>    SANDBOX_WEBHOOK_HEADER      default x-wallet-signature
 *   --webhook-algorithm <a>    SANDBOX_WEBHOOK_ALGORITHM   sha512 (default) or sha256
 *   --auto-issue-cards         SANDBOX_AUTO_ISSUE_CARDS=1  issue created cards at once
 */
import { parseArgs } from 'util';

import { startSandbox, type SandboxOptions, type WebhookAlgorithm } from './index';

const USAGE = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--api-key KEY]
  [--seed-customers N] [--seed-beneficiaries N] [--webhook-url URL] [--webhook-secret S]
  [--webhook-header NAME] [--webhook-algorithm sha512|sha256] [--auto-issue-cards]`;

function integer(name: string, value: string | undefined, fallback: number): number {
	if (value === undefined || value === '') return fallback;
	if (!/^\d+$/.test(value)) throw new Error(`${name} must be a non-negative integer, got '${value}'`);
	return Number(value);
}

const truthy = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value);

export function optionsFromArgs(argv: string[], env: NodeJS.ProcessEnv): SandboxOptions | 'help' {
	const { values } = parseArgs({
		args: argv,
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			'api-key': { type: 'string' },
			'seed-customers': { type: 'string' },
			'seed-beneficiaries': { type: 'string' },
			'webhook-url': { type: 'string' },
			'webhook-secret': { type: 'string' },
			'webhook-header': { type: 'string' },
			'webhook-algorithm': { type: 'string' },
			'auto-issue-cards': { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
		},
		strict: true,
	});
	if (values.help) return 'help';
	const algorithm = values['webhook-algorithm'] ?? env.SANDBOX_WEBHOOK_ALGORITHM;
	if (algorithm !== undefined && algorithm !== 'sha512' && algorithm !== 'sha256') {
		throw new Error(`--webhook-algorithm must be sha512 or sha256, got '${algorithm}'`);
	}
	return {
		port: integer('--port', values.port ?? env.SANDBOX_PORT, 4010),
		host: values.host ?? env.SANDBOX_HOST ?? '127.0.0.1',
		apiKey: values['api-key'] ?? env.SANDBOX_API_KEY,
		seed: {
			customers: integer('--seed-customers', values['seed-customers'] ?? env.SANDBOX_SEED_CUSTOMERS, 0),
			beneficiaries: integer('--seed-beneficiaries', values['seed-beneficiaries'] ?? env.SANDBOX_SEED_BENEFICIARIES, 0),
		},
		webhook: {
			url: values['webhook-url'] ?? env.SANDBOX_WEBHOOK_URL,
			secret: values['webhook-secret'] ?? env.SANDBOX_WEBHOOK_SECRET,
			header: values['webhook-header'] ?? env.SANDBOX_WEBHOOK_HEADER,
			algorithm: algorithm as WebhookAlgorithm | undefined,
		},
		autoIssueCards: values['auto-issue-cards'] ?? truthy(env.SANDBOX_AUTO_ISSUE_CARDS),
	};
}

async function main(): Promise<void> {
	let options: SandboxOptions | 'help';
	try {
		options = optionsFromArgs(process.argv.slice(2), process.env);
	} catch (error) {
		console.error(`${(error as Error).message}\n${USAGE}`);
		process.exit(2);
	}
	if (options === 'help') {
		console.log(USAGE);
		return;
	}
	const sandbox = await startSandbox(options);
	console.log(`Wallet payments sandbox listening on ${sandbox.url}`);
	console.log(`API key: ${sandbox.apiKey}`);
	if (options.webhook?.url) console.log(`Webhooks: ${options.webhook.url}`);
	console.log(`Controls: ${sandbox.url}/__sandbox/ (see docs/sandbox-spec.md)`);

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`${signal}: stopping sandbox`);
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
