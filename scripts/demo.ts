/**
 * `npm run demo`: a working n8n editor with this package, on one command.
 *
 *  1. installs Node 24 + n8n 2.x into the cache if missing (scripts/n8n-install.js; ~4 min once);
 *  2. builds the package (n8n-node build), packs it, and installs the tarball into a fresh n8n
 *     user folder the way n8n's own installer does for Settings → Community Nodes, recorded in
 *     n8n's database so that it is listed there as an installed community package;
 *  3. starts the sandbox (seeded customers and beneficiaries, cards issued at once), with its
 *     events going to the Wallet Payments Trigger of the imported examples;
 *  4. imports the credential (pointing at the sandbox) and every workflow in examples/*.json (on
 *     n8n 1.x, N8N_E2E_N8N_VERSION=1.123.81, all but the ones that need 2.x, named on the console:
 *     tooling/demo/examples.ts, NEEDS_N8N_2),
 *     publishes the ones that start with a Wallet Payments Trigger or a Chat Trigger (the AI agent
 *     example: its OpenAI credential gets DEMO_OPENAI_API_KEY and DEMO_OPENAI_BASE_URL when set,
 *     otherwise it points at a local rule-based demo model, tooling/demo/demoModel.ts); the
 *     examples' Send Email nodes (off in the files) are turned on with an SMTP credential for a
 *     mail server on this machine (tooling/demo/smtpSink.ts) that lists each e-mail on the console;
 *  5. starts n8n on http://127.0.0.1:5678 with an owner account, checks that Settings →
 *     Community Nodes lists the package (GET /rest/community-packages), and prints how to log in.
 * Ctrl-C stops n8n and the sandbox and removes the demo folder.
 *
 * Environment: DEMO_N8N_PORT (5678), DEMO_SANDBOX_PORT (4010), DEMO_OWNER_EMAIL,
 * DEMO_OWNER_PASSWORD, DEMO_OPENAI_API_KEY and DEMO_OPENAI_BASE_URL (the agent example's chat
 * model; default: the local demo model), DEMO_KEEP=1 (keep the folder), DEMO_VERBOSE=1 (n8n’s log on the console),
 * DEMO_EXAMPLES_DIR (default examples/), DEMO_SETTLE_MS (payouts settle after this many ms;
 * default 5000, `off` to settle them by hand),
 * N8N_E2E_CACHE (where Node 24 and n8n are cached).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

import { startSandbox, type Sandbox } from '../tooling/sandbox';
import { startDemoModel } from '../tooling/demo/demoModel';
import { readMail, SEND_EMAIL_TYPE, smtpCredential, startSmtpSink, withMail, type SmtpSink } from '../tooling/demo/smtpSink';
import { AGENT_MODEL_CREDENTIAL, APPROVER_CREDENTIAL, forN8nMajor, loadExamples } from '../tooling/demo/examples';
import { ensureInstalled, N8N_MAJOR, REPO_ROOT } from '../tooling/n8n/install';
import { N8n, PACKAGE_NAME, packPackage } from '../tooling/n8n/n8n';
import { handleSignalsElsewhere } from '../tooling/n8n/processes';
import { startRelay, type Relay } from '../tooling/n8n/relay';
import type { ScriptedModel } from '../tooling/demo/scriptedModel';

const N8N_PORT = Number(process.env.DEMO_N8N_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.DEMO_SANDBOX_PORT ?? 4010);
const OWNER = {
	email: process.env.DEMO_OWNER_EMAIL ?? 'demo@wallet-payments.test',
	password: process.env.DEMO_OWNER_PASSWORD ?? 'Demo-Passw0rd!',
	firstName: 'Demo',
	lastName: 'Owner',
};
const DEMO_CREDENTIAL = { id: 'WalletDemoCred01', name: 'Wallet Payments (sandbox)' };
const WEBHOOK_SECRET = 'whsec_sandbox';
const DEMO_MAIL = { id: 'WalletDemoMail01', name: 'Demo mail (kept on this machine)' };

function say(message: string): void {
	process.stdout.write(`[demo] ${message}\n`);
}

function portFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)));
	});
}

async function requirePort(port: number, what: string, variable: string): Promise<void> {
	if (!(await portFree(port))) {
		throw new Error(`Port ${port} on 127.0.0.1 is in use, so ${what} cannot start there. Stop what uses it, or set ${variable}.`);
	}
}

function build(): void {
	say('building the package (npm run build: n8n-node build)');
	const result = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
	if (result.status !== 0) throw new Error('npm run build failed');
}

/** How n8n lists this package under Settings → Community Nodes; fails when it does not. */
async function communityPackage(n8n: N8n): Promise<string> {
	const { status, body } = await n8n.rest<{
		data?: Array<{ packageName: string; installedVersion: string; failedLoading?: boolean; installedNodes: Array<{ name: string }> }>;
	}>('GET', '/community-packages');
	const installed = body.data?.find((p) => p.packageName === PACKAGE_NAME);
	if (status !== 200 || !installed || installed.failedLoading) {
		throw new Error(`n8n does not list ${PACKAGE_NAME} as an installed community package: GET /rest/community-packages → ${status} ${JSON.stringify(body)}`);
	}
	return `${installed.packageName} ${installed.installedVersion} (${installed.installedNodes.map((node) => node.name).join(', ')})`;
}

async function main(): Promise<void> {
	const started = Date.now();
	await requirePort(N8N_PORT, 'n8n', 'DEMO_N8N_PORT');
	await requirePort(SANDBOX_PORT, 'the sandbox', 'DEMO_SANDBOX_PORT');

	const install = await ensureInstalled();
	build();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-payments-demo-'));
	let sandbox: Sandbox | undefined;
	let relay: Relay | undefined;
	let model: ScriptedModel | undefined;
	let mail: SmtpSink | undefined;
	let n8n: N8n | undefined;
	let stopping = false;

	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		say('stopping n8n and the sandbox');
		await n8n?.stop().catch(() => undefined);
		await sandbox?.close().catch(() => undefined);
		await relay?.close().catch(() => undefined);
		await model?.close().catch(() => undefined);
		await mail?.close().catch(() => undefined);
		if (process.env.DEMO_KEEP) say(`kept ${folder}`);
		else fs.rmSync(folder, { recursive: true, force: true });
		process.exit(code);
	};
	handleSignalsElsewhere();
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));
	process.on('SIGHUP', () => void stop(0));

	try {
		const tarball = packPackage(path.join(folder, 'pack'));
		n8n = await N8n.create({ parentDir: folder, tarball, port: N8N_PORT, owner: OWNER, install });
		// On n8n 1.x (N8N_E2E_N8N_VERSION=1.123.81) the examples that need 2.x are left out, with why.
		const { examples, leftOut } = forN8nMajor(loadExamples(DEMO_CREDENTIAL, process.env.DEMO_EXAMPLES_DIR), N8N_MAJOR);
		for (const l of leftOut) say(`leaving out ${l.file}: it needs n8n 2.x, as ${l.reason}`);
		const triggered = examples.filter((e) => e.triggers.length > 0);
		const chats = examples.filter((e) => e.chats.length > 0);
		const triggerUrls = triggered.flatMap((e) =>
			e.triggers.map((t) => ({ workflow: e.workflow.name, url: `${n8n!.baseUrl}/webhook/${t.webhookId}/${t.path}` })),
		);

		// The sandbox sends every event to one URL: a relay on 127.0.0.1 passes each one on to the
		// trigger of every published example (each trigger keeps the events it listens for).
		relay = triggerUrls.length > 0 ? await startRelay(() => triggerUrls.map((t) => t.url)) : undefined;
		sandbox = await startSandbox({
			host: '127.0.0.1',
			port: SANDBOX_PORT,
			seed: { customers: 25, beneficiaries: 25 },
			autoIssueCards: true,
			webhook: { secret: WEBHOOK_SECRET, ...(relay ? { url: relay.url } : {}) },
			// Payouts settle by themselves, as a real service's do; the settlement example's
			// payee at 254799000005 fails (DEMO_SETTLE_MS=off to settle by hand instead).
			settlement: {
				delayMs: process.env.DEMO_SETTLE_MS === 'off' ? null : Number(process.env.DEMO_SETTLE_MS ?? 5000),
				rules: [{ accountNumber: '254799000005', outcome: 'failed', reason: 'Mobile money account closed' }],
			},
		});
		say(`sandbox on ${sandbox.url} (API key ${sandbox.apiKey})`);

		say('importing the credential' + (examples.length ? ` and ${examples.length} example workflow(s)` : ''));
		await n8n.importWalletCredential(
			// The demo is one n8n process: One Process Only, as the README recommends there.
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.url, webhookSecret: WEBHOOK_SECRET, processes: 'one' },
			DEMO_CREDENTIAL.id,
			DEMO_CREDENTIAL.name,
		);
		// The database exists now: record the package as an installed community package.
		n8n.registerCommunityPackage();
		let modelNote = '';
		if (chats.length > 0) {
			// The agent example's chat model: OpenAI (or any OpenAI-compatible server) when a key is
			// given, else the local rule-based demo model, so the chat works with nothing outside.
			const apiKey = process.env.DEMO_OPENAI_API_KEY;
			let url = process.env.DEMO_OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
			if (!apiKey) {
				model = await startDemoModel();
				url = model.url;
			}
			modelNote = apiKey ? `the chat model is ${url} (DEMO_OPENAI_API_KEY)` : `the chat model is the rule-based demo model on ${url} (type "help" in the chat; set DEMO_OPENAI_API_KEY for a real one)`;
			await n8n.importCredentials([{ ...AGENT_MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: apiKey ?? 'demo-model', url } }]);
		}
		// The payroll example's approval form asks for the approver's login (its Basic Auth credential).
		if (examples.some((e) => e.forms.length > 0)) await n8n.importCredentials([APPROVER_CREDENTIAL]);
		// E-mails the examples send go to a mail server here, which lists each on the console.
		if (examples.some((e) => e.workflow.nodes.some((n) => n.type === SEND_EMAIL_TYPE))) {
			mail = await startSmtpSink((raw) => {
				const { to, subject } = readMail(raw);
				say(`e-mail to ${to}: ${subject}`);
			});
			await n8n.importCredentials([smtpCredential(DEMO_MAIL, mail)]);
		}
		const workflows = examples.map((e) => (mail ? { ...e.workflow, nodes: e.workflow.nodes.map((n) => withMail(n, DEMO_MAIL)) } : e.workflow));
		if (workflows.length > 0) await n8n.importWorkflows(workflows);
		for (const example of triggered) {
			say(`publishing "${example.workflow.name}" (its trigger receives the sandbox's events)`);
			await n8n.publishWorkflow(example.workflow.id);
		}
		for (const example of chats) {
			say(`publishing "${example.workflow.name}" (its chat is public)`);
			await n8n.publishWorkflow(example.workflow.id);
		}
		const chatUrls = chats.flatMap((e) => e.chats.map((c) => ({ workflow: e.workflow.name, url: `${n8n!.baseUrl}/webhook/${c.webhookId}/chat` })));

		say(`starting n8n on ${n8n.baseUrl} (usually 15 to 60 s)`);
		const waitStarted = Date.now();
		const waiting = setInterval(() => {
			say(`  … waiting for n8n to answer ${n8n!.baseUrl}/healthz/readiness (${Math.round((Date.now() - waitStarted) / 1000)} s)`);
		}, 15000);
		try {
			await n8n.start({
				timeoutMs: 180000,
				onOutput: process.env.DEMO_VERBOSE ? (text) => process.stdout.write(text) : undefined,
			});
		} finally {
			clearInterval(waiting);
		}
		const listed = await communityPackage(n8n);

		const line = '─'.repeat(72);
		process.stdout.write(
			[
				'',
				line,
				`  n8n ${String(install.installed.n8nInstalled ?? '')} with n8n-nodes-wallet-payments: ${n8n.baseUrl}`,
				`  Log in:    ${OWNER.email}`,
				`  Password:  ${OWNER.password}`,
				'',
				`  Settings → Community Nodes: ${listed}`,
				`  Credential "${DEMO_CREDENTIAL.name}" points at the sandbox ${sandbox.url}`,
				`  Payouts settle by themselves after ${process.env.DEMO_SETTLE_MS === 'off' ? '(off: settle them by hand)' : `${Number(process.env.DEMO_SETTLE_MS ?? 5000) / 1000} s`}; the payee at 254799000005 fails.`,
				`  Sandbox controls (settle payouts, pay collections, card events): POST ${sandbox.url}/__sandbox/<control>`,
				`    e.g. curl -X POST ${sandbox.url}/__sandbox/settlePayout -H 'content-type: application/json' -d '{"transactionId":"…"}'`,
				examples.length
					? `  Example workflows: ${examples.map((e) => `"${e.workflow.name}"`).join(', ')}`
					: '  No examples/ folder yet: create workflows with the Wallet Payments node.',
				...leftOut.map((l) => `  Left out on n8n ${N8N_MAJOR}.x (needs n8n 2.x): ${l.file}`),
				...(mail ? [`  E-mails (the examples' Send Email nodes, on here) go to a mail server on this machine and are listed on this console: none leaves it.`] : []),
				...triggerUrls.map((t, i) => `  ${i === 0 ? 'Sandbox events go to' : '                 and'} ${t.url}  ("${t.workflow}")`),
				...chatUrls.map((c) => `  Chat with the agent: ${c.url}  ("${c.workflow}"; ${modelNote})`),
				...examples
					.filter((e) => e.forms.length > 0)
					.map((e) => `  "${e.workflow.name}": Execute workflow, then open approveAt from Ask for Approval's output (log in as ${APPROVER_CREDENTIAL.data.user} / ${APPROVER_CREDENTIAL.data.password}) to approve or reject`),
				'',
				`  Ready in ${Math.round((Date.now() - started) / 1000)} s. Ctrl-C stops n8n and the sandbox.`,
				line,
				'',
			].join('\n'),
		);
	} catch (error) {
		process.stderr.write(`\n[demo] FAILED: ${(error as Error).message}\n`);
		if (n8n?.log) process.stderr.write(`[demo] n8n's last output:\n${n8n.log.slice(-4000)}\n`);
		await stop(1);
	}
}

void main().catch((error) => {
	process.stderr.write(`\n[demo] FAILED: ${(error as Error).stack ?? error}\n`);
	process.exit(1);
});
