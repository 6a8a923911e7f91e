/** What the trigger harness (triggerHarness.ts) takes and gives. */
import type http from 'http';

import type { IDataObject, INode, INodeExecutionData, INodeParameters, INodeType, Workflow, WorkflowActivateMode } from 'n8n-workflow';

import type { TestCredentials } from '../n8n/runNode';

export interface Answer {
	status: number;
	/** The raw answer body. */
	text: string;
	/** The answer body parsed as JSON, when it is JSON. */
	json: unknown;
	headers: http.IncomingHttpHeaders;
}

/** When an injected failure happens (TriggerHarness.failNext). */
export type FailureMoment = 'before' | 'notStarted' | 'answerLost';

export interface RecordedAnswer {
	status: number;
	body: string;
	/** Whether the node's webhook() was called for this request. */
	nodeCalled: boolean;
}

export interface Activation {
	/** The lifecycle methods n8n called, in order. */
	calls: Array<'checkExists' | 'create' | 'delete'>;
	/** What checkExists returned. */
	exists?: boolean;
}

export interface TriggerHarnessOptions {
	/** The trigger node type under test. */
	nodeType: INodeType;
	/** Its type name, e.g. 'n8n-nodes-wallet-payments.walletPaymentsTrigger'. */
	typeName: string;
	parameters?: INodeParameters;
	/** The walletPaymentsApi credential's data; `null` for a node without credentials. */
	credentials?: TestCredentials | null;
	nodeName?: string;
}

export interface TriggerHarness {
	/** The trigger's production URL on the harness server. */
	url: string;
	workflow: Workflow;
	node: INode;
	/** The workflowData of every run the trigger started, in order. */
	runs: INodeExecutionData[][][];
	/** Every answer the server sent, in order. */
	answers: RecordedAnswer[];
	/** Everything the node's webhook() threw. */
	errors: Error[];
	/** The node's workflow static data ('node'). */
	staticData(): IDataObject;
	/**
	 * The next requests are answered with these statuses. `before` (default): n8n fails before
	 * the node runs (the node never sees the request). `notStarted`: the node runs, then n8n
	 * cannot start the run and answers the status itself ("There was a problem executing the
	 * workflow": n8n answers after it started the run). `answerLost`: the node runs, the run
	 * starts and n8n answers 200, but the caller gets the status instead, as when a proxy times
	 * out.
	 */
	failNext(statuses: number[], when?: FailureMoment): void;
	/** POSTs raw bytes (string/Buffer) or an object (sent as JSON.stringify) to the URL. */
	post(body: string | Buffer | object, headers?: Record<string, string>): Promise<Answer>;
	/** n8n's publish: checkExists, then create when it returned false. */
	activate(mode?: WorkflowActivateMode): Promise<Activation>;
	/** n8n's unpublish: delete. */
	deactivate(): Promise<Activation>;
	close(): Promise<void>;
}
