/** An execution as n8n's public API gives it (with its data), and whether it can be read whole. */
import type { NodeRun } from './n8n';

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
