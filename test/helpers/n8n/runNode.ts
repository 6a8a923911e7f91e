import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { WalletPayments } from '../../../nodes/WalletPayments/WalletPayments.node';
import { TestCredentialsHelper } from './credentials';

export const WALLET_NODE_TYPE = 'n8n-nodes-wallet-payments.walletPayments';
export const WALLET_NODE_NAME = 'Wallet Payments';
const INPUT_NODE_TYPE = 'test.input';
const TRIGGER_NODE_TYPE = 'test.trigger';
export const TRIGGER_NODE_NAME = 'Trigger';

/** What started the run (an event, a schedule tick): passes on the item the test gives. */
class TriggerNode implements INodeType {
	description = {
		displayName: 'Trigger',
		name: 'trigger',
		group: ['trigger'],
		version: 1,
		description: 'Test trigger',
		defaults: { name: TRIGGER_NODE_NAME },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** Emits the items the test gives (its `rows` parameter), like any upstream node (Set, spreadsheet, …). */
class InputNode implements INodeType {
	description = {
		displayName: 'Input',
		name: 'input',
		group: ['input'],
		version: 1,
		description: 'Test input',
		defaults: { name: 'Input' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Rows', name: 'rows', type: 'string', default: '[]' }],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const rows = JSON.parse(this.getNodeParameter('rows', 0) as string) as IDataObject[];
		return [rows.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}

const nodeTypeInstances: Record<string, INodeType> = {
	[WALLET_NODE_TYPE]: new WalletPayments(),
	[INPUT_NODE_TYPE]: new InputNode(),
	[TRIGGER_NODE_TYPE]: new TriggerNode(),
};

export const nodeTypes: INodeTypes = {
	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	},
	getByNameAndVersion(type: string): INodeType {
		const nodeType = nodeTypeInstances[type];
		if (!nodeType) throw new Error(`Unknown node type ${type}`);
		return nodeType;
	},
	getKnownTypes() {
		return {};
	},
};

let executionCounter = 0;

export interface TestCredentials {
	apiKey: string;
	baseUrl: string;
	webhookSecret?: string;
	/** The credential's "Timeout (Seconds)"; the node uses 60 when absent. */
	timeout?: number;
	/**
	 * Test shorthand for the credential's "n8n Runs As": true is Several Processes, false or absent
	 * One Process Only (so that tests not about claims do not wait), unless `processes` is given.
	 */
	queueMode?: boolean;
	/** The payment limits (nodes/WalletPayments/controls/paymentLimits.ts), as the credential stores them. */
	maxPerPayment?: string;
	maxPerRun?: string;
	allowedCurrencies?: string;
	savedBeneficiariesOnly?: boolean;
	/** "n8n Runs As" as stored; `null` leaves it out (the credential as created: claims). */
	processes?: 'one' | 'several' | null;
	claimWaitMs?: number;
}

export interface RunOptions {
	parameters: INodeParameters;
	credentials: TestCredentials;
	/** Input items (plain JSON objects); one empty item by default. */
	items?: IDataObject[];
	continueOnFail?: boolean;
	/** On Error → Continue (using error output): the failed items go to `errorItems`. */
	errorOutput?: boolean;
	/** n8n's execution ID; pass the same one to imitate Retry On Fail within one execution. */
	executionId?: string;
	/** Node ID in the workflow (stable across executions of the same workflow). */
	nodeId?: string;
	/**
	 * The trigger's output item: what started the run. Runs with the same trigger item are re-runs
	 * of one another (a retry, a repeated event); a new event or schedule tick gives another.
	 */
	trigger?: IDataObject;
	/** The workflow's ID (default 'test-workflow'); n8n's de-duplication store needs one. */
	workflowId?: string;
	/** The Wallet Payments node's typeVersion (default 1). */
	typeVersion?: number;
	/** n8n's execution mode (default 'manual'); 'retry' is a Retry of an execution. */
	mode?: WorkflowExecuteMode;
	/**
	 * The workflow's static data, as n8n loads it from its database; what the run writes is left
	 * in it (pass the same object to the next run to imitate a run n8n saves, a new one for one it
	 * does not).
	 */
	staticData?: IDataObject;
}

export interface RunResult {
	/** The Wallet Payments node's output items (empty when it failed). */
	items: INodeExecutionData[];
	/** The node's error output (with `errorOutput`). */
	errorItems: INodeExecutionData[];
	/** The node's error when the execution stopped on it. */
	error?: ExecutionError;
	run: IRun;
}

/** The credential data as n8n hands it to the node, from the test's shorthand. */
export function credentialData({ queueMode, processes, ...rest }: TestCredentials): ICredentialDataDecryptedObject {
	const runsAs = processes === undefined ? (queueMode ? 'several' : 'one') : processes;
	return { ...rest, ...(runsAs === null ? {} : { processes: runsAs }) };
}

export function additionalDataFor(credentials: TestCredentials, hooks: ExecutionLifecycleHooks, executionId: string) {
	return {
		hooks,
		executionId,
		credentialsHelper: new TestCredentialsHelper({ walletPaymentsApi: credentialData(credentials) }),
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used in these tests');
		},
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
		variables: {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Code runners are not used in these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * Runs Input → Wallet Payments through n8n-core's WorkflowExecute: the real parameter
 * resolution, request helpers (httpRequestWithAuthentication over real HTTP), paired items and
 * Continue On Fail handling that n8n itself uses.
 */
export async function runWalletNode(options: RunOptions): Promise<RunResult> {
	const items = options.items ?? [{}];
	const executionId = options.executionId ?? String(++executionCounter);
	const walletNode: INode = {
		id: options.nodeId ?? 'wallet-node',
		name: WALLET_NODE_NAME,
		type: WALLET_NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [200, 0],
		parameters: options.parameters,
		credentials: { walletPaymentsApi: { id: '1', name: 'Wallet Payments account' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.errorOutput ? { onError: 'continueErrorOutput' as const } : {}),
	};
	const inputNode: INode = {
		id: 'input-node',
		name: 'Input',
		type: INPUT_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { rows: JSON.stringify(items) },
	};
	const triggerNode: INode = {
		id: 'trigger-node',
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [-200, 0],
		parameters: {},
	};
	const workflow = new Workflow({
		id: options.workflowId ?? 'test-workflow',
		name: 'test',
		nodes: [triggerNode, inputNode, walletNode],
		connections: {
			[TRIGGER_NODE_NAME]: { main: [[{ node: 'Input', type: NodeConnectionTypes.Main, index: 0 }]] },
			Input: { main: [[{ node: WALLET_NODE_NAME, type: NodeConnectionTypes.Main, index: 0 }]] },
		},
		nodeTypes,
		active: false,
		settings: {},
		staticData: options.staticData,
	});

	const mode = options.mode ?? 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: options.workflowId ?? 'test-workflow',
		name: 'test',
		nodes: workflow.nodes ? Object.values(workflow.nodes) : [],
		connections: {},
		active: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
		activeVersionId: null,
	} as never);
	let resolveFinished: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveFinished(run));

	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: triggerNode,
					data: { main: [[{ json: options.trigger ?? {} }]] },
					source: null,
				},
			],
		},
	});

	const execute = new WorkflowExecute(
		additionalDataFor(options.credentials, hooks, executionId),
		mode,
		runExecutionData,
	);
	await execute.processRunExecutionData(workflow);
	const run = await finished;

	const taskData = run.data.resultData.runData[WALLET_NODE_NAME]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? [],
		errorItems: taskData?.data?.main?.[1] ?? [],
		error: taskData?.error ?? run.data.resultData.error,
		run,
	};
}
