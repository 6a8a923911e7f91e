/**
 * When a delivery is answered 2xx: only once its run has reached the trigger's step and the
 * event's record there held, so that a run n8n does not start, or that fails at the trigger, is
 * answered with an error and delivered again (the admission in dedupe.ts holds only after a 2xx).
 *
 * The trigger's webhook is `responseNode` and its step answers (n8n's Respond to Webhook path,
 * which reaches the webhook process from a queue worker too). Left to n8n
 * (`onReceived`), a delivery can be answered 200 for a run n8n then fails before any node: n8n 1.x
 * and 2.0–2.7 answer before they start the run, and 2.8 and later (read from 2.41.1) fail the run
 * and still answer 200 when their credential check throws, a pool timeout at n8n's default pool
 * among others. Sources and measurements: docs/trigger.md.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

export const RESPONSE_MODE = 'responseNode';

/** n8n's own answer to a webhook that started a run. */
export const STARTED_ANSWER = { message: 'Workflow was started' };

/** The trigger's step answers the delivery: its run started and its event's record held. */
export function answerFromStep(context: IExecuteFunctions): void {
	context.sendResponse({ body: STARTED_ANSWER, headers: {}, statusCode: 200 });
}
