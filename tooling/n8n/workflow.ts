/** Small builders for n8n workflow JSON (as `n8n import:workflow` takes it). */
import { CREDENTIAL_ID, CREDENTIAL_NAME, WALLET_NODE_TYPE, WALLET_TRIGGER_TYPE, type WorkflowJson } from './n8n';

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
	executeOnce?: boolean;
	alwaysOutputData?: boolean;
	[key: string]: unknown;
}

let counter = 0;
const nodeId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

export function manualTrigger(name = 'Start'): WorkflowNode {
	return {
		id: nodeId(),
		name,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

export interface WalletNodeOptions {
	/** Continue On Fail (n8n's "On Error: Continue"). */
	continueOnFail?: boolean;
	/** n8n's "On Error: Continue (using error output)": failed items leave by a second output. */
	errorOutput?: boolean;
	/** Run once, on the first input item only. */
	executeOnce?: boolean;
	credentialId?: string;
	credentialName?: string;
}

/** A Wallet Payments node with the imported sandbox credential. */
export function walletNode(
	name: string,
	resource: string,
	operation: string,
	parameters: Record<string, unknown> = {},
	options: WalletNodeOptions = {},
): WorkflowNode {
	return {
		id: nodeId(),
		name,
		type: WALLET_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource, operation, ...parameters },
		credentials: {
			walletPaymentsApi: { id: options.credentialId ?? CREDENTIAL_ID, name: options.credentialName ?? CREDENTIAL_NAME },
		},
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.errorOutput ? { onError: 'continueErrorOutput' as const } : {}),
		...(options.executeOnce ? { executeOnce: true } : {}),
	};
}

/** Any other node (n8n-nodes-base.*). */
export function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	extra: Partial<WorkflowNode> = {},
): WorkflowNode {
	return { id: nodeId(), name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

/**
 * A workflow whose nodes run one after another, in the order given (each node's main output
 * feeds the next). Expressions like `$('Create Customer').item.json.id` reach earlier nodes.
 */
export function chain(id: string, name: string, nodes: WorkflowNode[]): WorkflowJson {
	const names = new Set<string>();
	nodes.forEach((n, index) => {
		if (names.has(n.name)) throw new Error(`Duplicate node name "${n.name}"`);
		names.add(n.name);
		n.position = [index * 220, 0];
	});
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

/**
 * A workflow from explicit edges: [from, to] or [from, to, outputIndex].
 */
export function graph(
	id: string,
	name: string,
	nodes: WorkflowNode[],
	edges: Array<[string, string] | [string, string, number]>,
): WorkflowJson {
	nodes.forEach((n, index) => {
		n.position = [(index % 8) * 220, Math.floor(index / 8) * 200];
	});
	const connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }> = {};
	for (const [from, to, output = 0] of edges) {
		if (!nodes.some((n) => n.name === from) || !nodes.some((n) => n.name === to)) {
			throw new Error(`Edge ${from} → ${to} names a missing node`);
		}
		const entry = (connections[from] ??= { main: [] });
		while (entry.main.length <= output) entry.main.push([]);
		entry.main[output].push({ node: to, type: 'main', index: 0 });
	}
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

/**
 * The destination form (n8n's resource mapper) for Kenyan mobile money, as the editor saves it
 * after loading the fields from the country's requirements.
 */
export function mobileMoneyForm(value: { network: string; accountName: string; accountNumber: string }) {
	const field = (id: string, displayName: string, extra: Record<string, unknown> = {}) => ({
		id,
		displayName,
		required: true,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: 'string',
		removed: false,
		...extra,
	});
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema: [
			field('network', 'Mobile Network', { type: 'options', options: [{ name: 'MPESA', value: 'MPESA' }] }),
			field('accountName', 'Account Name'),
			field('accountNumber', 'Account Number'),
		],
		attemptToConvertTypes: false,
		convertFieldsToString: true,
	};
}

/**
 * Wallet Payments Trigger (every event, sha512 signature in `signatureHeader`) → Payout →
 * Initiate paying the event's `data.beneficiaryId` `data.amount`: one payout per event that gets
 * past the trigger (the trigger de-duplication tests, in one process and in queue mode).
 */
export function payPerEventWorkflow(
	id: string,
	name: string,
	webhookId: string,
	signatureHeader: string,
	/** The trigger's De-Duplication Window (its default when left out; 0: every copy runs, Pay alone guards). */
	dedupeWindow?: number,
	/** The trigger's Verify Signature (on unless false). */
	verifySignature = true,
): WorkflowJson {
	const options = dedupeWindow === undefined ? {} : { dedupeWindow };
	const trigger = node(
		'Wallet Payments Trigger',
		WALLET_TRIGGER_TYPE,
		1,
		{ events: ['*'], verifySignature, signatureHeader, signatureAlgorithm: 'sha512', options },
		{ webhookId, credentials: { walletPaymentsApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } } },
	);
	const pay = walletNode('Pay', 'payout', 'initiate', {
		sourceWalletCurrency: 'USD',
		amount: '={{ $json.data.amount }}',
		customerEmail: '={{ $json.data.email }}',
		description: 'Approved payee',
		beneficiaryMode: 'id',
		beneficiaryId: { __rl: true, mode: 'id', value: '={{ $json.data.beneficiaryId }}' },
	});
	return graph(id, name, [trigger, pay], [['Wallet Payments Trigger', 'Pay']]);
}
