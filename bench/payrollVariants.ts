/** What the payroll part runs (variants, runs) and the settings its run and its report share. */
import type { Endpoint, ServiceStats } from './sandboxes';

/** The HTTP Request node's Batching → Items per Batch (the node's default in flight). */
export const PAYROLL_HTTP_BATCH = 10;
/** n8n's EXECUTIONS_DATA_MAX_DISPLAY_SIZE default: larger execution data is not shown in the editor. */
export const N8N_MAX_DISPLAY_MB = 100;

export type PayrollKind = 'node' | 'node1' | 'http' | 'httpPaced';

export interface PayrollVariant {
	/** measurements key, e.g. fast.node.2000 */
	key: string;
	kind: PayrollKind;
	n: number;
	runs: number;
	endpoint: Endpoint;
	label: string;
}

export interface PayrollRun {
	/** n8n's executionTime of the measured node, ms. */
	ms: number;
	/** The whole `n8n execute`, start-up included, ms. */
	wallMs: number;
	/** Peak RSS of `n8n execute` (n8n's main process), KB. */
	maxRssKb?: number;
	/** The execution as n8n saved it in its database: status and size of its data, bytes. */
	saved: { status: string; dataBytes: number };
	stats: ServiceStats;
}
