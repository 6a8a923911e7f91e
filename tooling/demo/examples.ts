/**
 * The example workflows (examples/*.json), made ready to import into a fresh n8n: every Wallet
 * Payments node and trigger gets the given credential, every workflow a valid fixed id, every
 * trigger a fixed webhookId (so its production URL is known before n8n starts).
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { REPO_ROOT } from '../n8n/install';
import { CREDENTIAL_TYPE, WALLET_NODE_TYPE, WALLET_TOOL_TYPE, WALLET_TRIGGER_TYPE, type WorkflowJson } from '../n8n/n8n';

/** n8n's Chat Trigger: an example it starts runs from a chat (published), not with `n8n execute`. */
export const CHAT_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.chatTrigger';

/**
 * The Basic Auth credential the payroll example's approval form asks for (Wait for Approval), and
 * the login the demo and the tests give it: only who has it can approve.
 */
export const APPROVER_CREDENTIAL = { id: 'WalletApprover01', name: 'Payroll approver', type: 'httpBasicAuth', data: { user: 'approver', password: 'approve-payroll' } };

/** The approver's Authorization header (APPROVER_CREDENTIAL's login). */
export const approverLogin = () => `Basic ${Buffer.from(`${APPROVER_CREDENTIAL.data.user}:${APPROVER_CREDENTIAL.data.password}`).toString('base64')}`;

/** The OpenAI credential the agent example's chat model names (its Base URL can point anywhere). */
export const AGENT_MODEL_CREDENTIAL = { id: 'WalletAgentModel', name: 'OpenAI (or any OpenAI-compatible server)' };

export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

export interface Example {
	file: string;
	workflow: WorkflowJson;
	/** Wallet Payments Trigger nodes: production URL is `<n8n>/webhook/<webhookId>/<path>`. */
	triggers: Array<{ name: string; webhookId: string; path: string }>;
	/** Chat Trigger nodes (an AI agent's conversation): the hosted chat is `<n8n>/webhook/<webhookId>/chat`. */
	chats: Array<{ name: string; webhookId: string }>;
	/** Wait nodes that resume on a form (a person's approval): such an example runs from its own test. */
	forms: string[];
}

/**
 * The examples that need n8n 2.x, with why: the README's Compatibility section and each one's
 * first note say so (test/project/examplesLines.test.ts), and on n8n 1.x the demo and the
 * examples suite leave them out (`forN8nMajor`), printing them with these reasons.
 */
export const NEEDS_N8N_2: Readonly<Record<string, string>> = {
	'agent-payouts-with-review.json': "its review steps are n8n 2.x's chat review tool, which n8n 1.x does not have",
	'collection-paid-receipt.json':
		"its Data table nodes find the table by name, which n8n 1.x's Data table node cannot (from a list or by ID only); the table is the one scheduled-collections.json makes",
	'payout-events-with-wait.json':
		"it makes its own data table and finds it by name, which n8n 1.x's Data table node cannot (row operations only, from a list or by ID)",
	'scheduled-collections.json':
		"it makes its own data table and finds it by name, which n8n 1.x's Data table node cannot (row operations only, from a list or by ID)",
};

/** The examples for an n8n of this major version, and the ones left out there (file and why). */
export function forN8nMajor(examples: Example[], major: number): { examples: Example[]; leftOut: Array<{ file: string; reason: string }> } {
	if (major >= 2) return { examples, leftOut: [] };
	const leftOut = [...new Set(examples.map((e) => e.file))].filter((file) => NEEDS_N8N_2[file]).map((file) => ({ file, reason: NEEDS_N8N_2[file] }));
	return { examples: examples.filter((e) => !NEEDS_N8N_2[e.file]), leftOut };
}

/** A stable 16-character id for a workflow without a valid one. */
function idFor(seed: string): string {
	return `Demo${createHash('sha256').update(seed).digest('hex').slice(0, 12)}`;
}

function uuidFor(seed: string): string {
	const hex = createHash('sha256').update(seed).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The example a user runs before the others (the README says so): the demo lists and imports it first. */
export const FIRST_EXAMPLE = 'provider-check.json';

/** Reads examples/*.json (each a workflow or an array of them), FIRST_EXAMPLE first, then by file name. */
export function loadExamples(credential: { id: string; name: string }, dir: string = EXAMPLES_DIR): Example[] {
	if (!fs.existsSync(dir)) return [];
	const examples: Example[] = [];
	const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
	for (const file of [...files.filter((f) => f === FIRST_EXAMPLE), ...files.filter((f) => f !== FIRST_EXAMPLE)]) {
		const parsed = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as WorkflowJson | WorkflowJson[];
		const workflows = Array.isArray(parsed) ? parsed : [parsed];
		workflows.forEach((source, index) => {
			const workflow = JSON.parse(JSON.stringify(source)) as WorkflowJson;
			if (typeof workflow.id !== 'string' || !/^[A-Za-z0-9]{16}$/.test(workflow.id)) {
				workflow.id = idFor(`${file}#${index}`);
			}
			workflow.name = workflow.name || file.replace(/\.json$/, '');
			const triggers: Example['triggers'] = [];
			const chats: Example['chats'] = [];
			const forms: string[] = [];
			for (const n of workflow.nodes) {
				if (n.type === WALLET_NODE_TYPE || n.type === WALLET_TOOL_TYPE || n.type === WALLET_TRIGGER_TYPE) {
					n.credentials = { [CREDENTIAL_TYPE]: { ...credential } };
				}
				if (n.type === WALLET_TRIGGER_TYPE) {
					if (typeof n.webhookId !== 'string' || n.webhookId === '') n.webhookId = uuidFor(`${workflow.id}/${String(n.name)}`);
					// The trigger's webhook path is fixed ('webhook') in its description.
					triggers.push({ name: String(n.name), webhookId: n.webhookId as string, path: 'webhook' });
				}
				if (n.type === CHAT_TRIGGER_TYPE) {
					if (typeof n.webhookId !== 'string' || n.webhookId === '') n.webhookId = uuidFor(`${workflow.id}/${String(n.name)}`);
					chats.push({ name: String(n.name), webhookId: n.webhookId as string });
				}
				if (n.type === 'n8n-nodes-base.wait' && (n.parameters as { resume?: unknown } | undefined)?.resume === 'form') forms.push(String(n.name));
			}
			delete workflow.active;
			examples.push({ file, workflow, triggers, chats, forms });
		});
	}
	return examples;
}
