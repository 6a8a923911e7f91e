/** An execution as n8n's public API gives it (with its data), whether it can be read whole, and waiting for it. */
import type { N8n, NodeRun } from './n8n';

export interface ApiExecution {
	id: string;
	status: string;
	finished?: boolean;
	mode?: string;
	data?: { resultData: { runData: Record<string, NodeRun[]> } };
}

/**
 * Whether an execution (read with its data) has ended and can be read whole: n8n 1.x marks a
 * successful run ended a moment before its data can be read.
 */
export function ended(execution: ApiExecution): boolean {
	if (execution.status === 'running' || execution.status === 'new') return false;
	return execution.status !== 'success' || execution.data !== undefined;
}

export interface ExecutionWait {
	/** Wait for one of these statuses; default: any end. */
	statuses?: string[];
	timeoutMs?: number;
	everyMs?: number;
	/** Fail at once when the run ends otherwise (error, crashed, canceled). */
	failOnOtherEnd?: boolean;
}

const OTHER_ENDS = ['error', 'crashed', 'canceled'];

/** Polls one execution (public API, with its data) until it has ended, or has one of `statuses`. */
export async function executionWhen(n8n: Pick<N8n, 'publicApi' | 'log'>, id: string, wait: ExecutionWait = {}): Promise<ApiExecution> {
	const { statuses, timeoutMs = 30000, everyMs = 200, failOnOtherEnd = false } = wait;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = await n8n.publicApi<ApiExecution>('GET', `/executions/${id}?includeData=true`);
		if (found.status === 200 && ended(found.body) && (!statuses || statuses.includes(found.body.status))) return found.body;
		if (found.status === 200 && failOnOtherEnd && statuses && !statuses.includes(found.body.status) && OTHER_ENDS.includes(found.body.status)) {
			const error = (found.body.data?.resultData as { error?: unknown } | undefined)?.error ?? null;
			throw new Error(`Execution ${id} ended ${found.body.status}: ${JSON.stringify(error)}`);
		}
		if (Date.now() > deadline) {
			const wanted = statuses ? `is not ${statuses.join('/')}` : 'did not finish';
			throw new Error(`Execution ${id} ${wanted}: ${JSON.stringify(found.body).slice(0, 800)}\n${n8n.log.slice(-3000)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}
