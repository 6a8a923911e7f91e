/**
 * Driving the payroll example (examples/payroll-with-approval.json) as its user does: Execute
 * workflow in the editor, the run waiting on the approver's form, the approver's answer, and the
 * nodes' outputs read from the finished execution.
 */
import { executionWhen, type ApiExecution } from '../n8n/executions';
import { approverLogin } from './examples';
import type { N8n } from '../n8n/n8n';

/** A node's output items (main output 0) in one of its runs. */
export const outputOf = (execution: ApiExecution, node: string, runIndex = 0) =>
	(execution.data?.resultData.runData[node]?.[runIndex]?.data?.main[0] ?? []).map((item) => item.json);

export function payrollDriver(n8n: () => N8n, workflowId: string) {
	/** The execution once it has one of `statuses` (and its data); an error or crash fails. */
	const executionWith = async (id: string, statuses: string[]): Promise<ApiExecution> =>
		await executionWhen(n8n(), id, { statuses, timeoutMs: 90000, everyMs: 300, failOnOtherEnd: true });

	return {
		executionWith,
		/** "Execute workflow" in the editor, then the run once it waits for the approver. */
		async start(): Promise<ApiExecution> {
			const started = await n8n().runManually(workflowId, { triggerToStartFrom: { name: 'When clicking ‘Execute workflow’' } });
			const id = started.body.data?.executionId;
			if (!id) throw new Error(`POST /rest/workflows/${workflowId}/run → ${started.status}: ${JSON.stringify(started.body)}`);
			return await executionWith(id, ['waiting']);
		},
		/**
		 * The approver's answer on the form n8n serves at the approval link (field 0: Decision),
		 * logged in as the approver (the Wait node's Basic Auth), or as `login` says; its status.
		 */
		async answer(approveAt: string, decision: 'Approve' | 'Reject', login: string | null = approverLogin()): Promise<number> {
			const form = new FormData();
			form.append('field-0', decision);
			const response = await fetch(approveAt, { method: 'POST', body: form, headers: login ? { authorization: login } : {} });
			if (login === approverLogin() && response.status !== 200) throw new Error(`${decision} at ${approveAt} → ${response.status}`);
			return response.status;
		},
		/** The approval page as the approver sees it. */
		async page(approveAt: string): Promise<string> {
			return await (await fetch(approveAt, { headers: { authorization: approverLogin() } })).text();
		},
	};
}
