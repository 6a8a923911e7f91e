/**
 * Runs a webhook trigger node the way n8n's webhook server does, behind a real HTTP server:
 *
 * - reads the raw body into `req.rawBody` (a Buffer) and parses it by content type into
 *   `req.body` (packages/cli/src/middlewares/body-parser.ts: JSON, text, form; a JSON body that
 *   does not parse is answered 422 before the node runs);
 * - calls the node's `webhook()` with n8n-core's real `WebhookContext`
 *   (packages/cli/src/webhooks/webhook.service.ts `runWebhook`);
 * - answers like packages/cli/src/webhooks/webhook-helpers.ts for `responseMode: 'onReceived'`
 *   (the trigger is `responseNode`, and its step's first act is this same 200 "Workflow was
 *   started", so a run that starts is answered alike; startedAnswer.test.ts covers the step):
 *   `noWebhookResponse` → the node answered itself; no `workflowData` → 200 with
 *   `webhookResponse` (or "Webhook call received"); `workflowData` → a run starts and the answer
 *   is 200 "Workflow was started"; a throwing node → 500 with n8n's generic message;
 * - runs `webhookMethods` (checkExists → create, delete) with n8n-core's `HookContext`, as
 *   n8n does at publish and unpublish.
 *
 * One Workflow instance serves every request, so workflow static data persists between them
 * (n8n saves it after each production request).
 */
import { randomUUID } from 'crypto';
import http from 'http';
import type { AddressInfo } from 'net';

import { ExecutionLifecycleHooks, HookContext, WebhookContext } from 'n8n-core';
import type {
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { additionalDataFor, type TestCredentials } from '../n8n/runNode';
import { parseBody, readBody, send, type RawRequest } from './webhookBody';
import type { Activation, FailureMoment, RecordedAnswer, TriggerHarness, TriggerHarnessOptions } from './triggerHarnessTypes';

export type * from './triggerHarnessTypes';

const WORKFLOW_ID = 'trigger-workflow';

export async function startTriggerHarness(options: TriggerHarnessOptions): Promise<TriggerHarness> {
	const { nodeType, typeName } = options;
	const nodeTypes: INodeTypes = {
		getByName(type: string): INodeType | IVersionedNodeType {
			return this.getByNameAndVersion(type);
		},
		getByNameAndVersion(type: string): INodeType {
			if (type !== typeName) throw new Error(`Unknown node type ${type}`);
			return nodeType;
		},
		getKnownTypes() {
			return {};
		},
	};
	const nodeName = options.nodeName ?? 'Wallet Payments Trigger';
	const webhookId = randomUUID();
	const node: INode = {
		// Its own ID per harness: the trigger's claim table is kept per workflow and node.
		id: `trigger-node-${randomUUID()}`,
		name: nodeName,
		type: typeName,
		typeVersion: 1,
		position: [0, 0],
		webhookId,
		parameters: options.parameters ?? {},
		...(options.credentials === null
			? {}
			: { credentials: { walletPaymentsApi: { id: '1', name: 'Wallet Payments account' } } }),
	};
	const workflow = new Workflow({
		id: WORKFLOW_ID,
		name: 'trigger test',
		nodes: [node],
		connections: {},
		nodeTypes,
		active: true,
		staticData: {},
		settings: {},
	});
	const workflowNode = workflow.getNode(nodeName)!;
	const description = nodeType.description.webhooks?.find((w) => w.name === 'default') as IWebhookDescription;
	const path = `${webhookId}/${String(description.path)}`;
	const credentials: TestCredentials = options.credentials ?? { apiKey: 'unused', baseUrl: 'http://127.0.0.1:9' };

	let executionCounter = 0;
	const newAdditionalData = (): IWorkflowExecuteAdditionalData => {
		const executionId = `trigger-${++executionCounter}`;
		const hooks = new ExecutionLifecycleHooks('webhook', executionId, {
			id: WORKFLOW_ID,
			name: 'trigger test',
			nodes: [workflowNode],
			connections: {},
			active: true,
			createdAt: new Date(),
			updatedAt: new Date(),
			isArchived: false,
			activeVersionId: null,
		} as never);
		return additionalDataFor(credentials, hooks, executionId);
	};
	const webhookData = (additionalData: IWorkflowExecuteAdditionalData): IWebhookData => ({
		httpMethod: 'POST',
		node: nodeName,
		path,
		webhookDescription: description,
		workflowId: WORKFLOW_ID,
		workflowExecuteAdditionalData: additionalData,
		webhookId,
	});

	const runs: INodeExecutionData[][][] = [];
	const answers: RecordedAnswer[] = [];
	const errors: Error[] = [];
	const failures: Array<{ status: number; when: FailureMoment }> = [];

	const record = (res: http.ServerResponse, nodeCalled: boolean) => {
		const chunks: Buffer[] = [];
		const write = res.write.bind(res);
		const end = res.end.bind(res);
		res.write = ((chunk: unknown, ...rest: unknown[]) => {
			if (chunk) chunks.push(Buffer.from(chunk as string));
			return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
		}) as typeof res.write;
		res.end = ((chunk?: unknown, ...rest: unknown[]) => {
			if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
			answers.push({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf-8'), nodeCalled: nodeCalled });
			return (end as (...args: unknown[]) => http.ServerResponse)(chunk, ...rest);
		}) as typeof res.end;
	};

	async function handle(incoming: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
		if (incoming.method !== 'POST' || url.pathname !== `/webhook/${path}`) {
			record(res, false);
			send(res, 404, { code: 404, message: `The requested webhook "${incoming.method} ${url.pathname}" is not registered.` });
			return;
		}
		const req = incoming as RawRequest;
		const raw = await readBody(req);
		const failure = failures.shift();
		if (failure?.when === 'before') {
			record(res, false);
			send(res, failure.status, { code: failure.status, message: 'Injected failure' });
			return;
		}
		if (raw === 'too-large') {
			record(res, false);
			send(res, 413, { code: 413, message: 'request entity too large' });
			return;
		}
		req.rawBody = raw;
		req.params = {};
		req.query = Object.fromEntries(url.searchParams);
		try {
			parseBody(req);
		} catch {
			record(res, false);
			send(res, 422, { code: 422, message: 'Failed to parse request body' });
			return;
		}

		// An "answerLost" failure lets the node run and n8n answer 200 where the caller cannot see it.
		const target = failure?.when === 'answerLost' ? new http.ServerResponse(req) : res;
		if (target === res) record(res, true);
		const additionalData = newAdditionalData();
		additionalData.httpRequest = req as never;
		additionalData.httpResponse = target as never;
		let result: IWebhookResponseData;
		try {
			const context = new WebhookContext(workflow, workflowNode, additionalData, 'webhook', webhookData(additionalData), [], null);
			result = (await nodeType.webhook!.call(context)) as IWebhookResponseData;
		} catch (error) {
			errors.push(error as Error);
			if (failure) {
				record(res, true);
				send(res, failure.status, { code: failure.status, message: 'Injected failure' });
			} else {
				send(res, 500, { code: 500, message: 'Workflow Webhook Error: Workflow could not be started!' });
			}
			return;
		}
		if (failure?.when === 'notStarted' && result.workflowData !== undefined) {
			send(res, failure.status, { code: failure.status, message: 'There was a problem executing the workflow' });
			return;
		}
		if (result.workflowData !== undefined) runs.push(result.workflowData);
		if (failure) {
			if (target !== res) {
				target.statusCode = 200;
				target.emit('finish');
			}
			record(res, true);
			send(res, failure.status, { code: failure.status, message: 'Injected failure' });
			return;
		}
		if (result.noWebhookResponse === true) {
			if (!res.writableEnded) send(res, 500, { code: 500, message: 'The node did not answer (noWebhookResponse)' });
			return;
		}
		if (result.workflowData === undefined) {
			send(res, 200, result.webhookResponse !== undefined ? result.webhookResponse : { message: 'Webhook call received' });
			return;
		}
		send(res, 200, result.webhookResponse !== undefined ? result.webhookResponse : { message: 'Workflow was started' });
	}

	const server = http.createServer((req, res) => {
		handle(req, res).catch((error: Error) => {
			errors.push(error);
			if (!res.headersSent) send(res, 500, { code: 500, message: 'Harness error' });
			else res.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	const baseUrl = `http://127.0.0.1:${port}/webhook/${path}`;

	async function runHook(method: 'checkExists' | 'create' | 'delete', activation: WorkflowActivateMode) {
		const fn = nodeType.webhookMethods?.default?.[method];
		if (!fn) return undefined;
		const additionalData = newAdditionalData();
		const context = new HookContext(workflow, workflowNode, additionalData, 'webhook', activation, webhookData(additionalData));
		return (await fn.call(context)) as boolean;
	}

	return {
		url: baseUrl,
		workflow,
		node: workflowNode,
		runs,
		answers,
		errors,
		staticData: () => workflow.getStaticData('node', workflowNode),
		failNext(statuses, when = 'before') {
			failures.push(...statuses.map((status) => ({ status, when })));
		},
		async post(body, headers = {}) {
			const payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
			const response = await fetch(baseUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: payload,
			});
			const text = await response.text();
			let json: unknown;
			try {
				json = JSON.parse(text);
			} catch {
				json = undefined;
			}
			return { status: response.status, text, json, headers: Object.fromEntries(response.headers) };
		},
		async activate(activation = 'activate') {
			const calls: Activation['calls'] = ['checkExists'];
			const exists = await runHook('checkExists', activation);
			if (!exists) {
				calls.push('create');
				await runHook('create', activation);
			}
			return { calls, exists };
		},
		async deactivate() {
			await runHook('delete', 'activate');
			return { calls: ['delete'] };
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
