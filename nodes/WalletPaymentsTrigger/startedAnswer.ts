/**
 * When a delivery is answered 2xx: only once its run exists, so that a run n8n could not start is
 * answered 5xx and delivered again (the admission in dedupe.ts holds only after a 2xx).
 *
 * n8n 2.8 and later answer an `onReceived` webhook after the run exists. n8n 1.x and 2.0–2.7
 * answer 200 before they start the run, so a run that then fails to start is lost. There the
 * trigger's webhook is `responseNode` and the trigger's own step answers (n8n's Respond to Webhook
 * path, which reaches the webhook process from a queue worker too); a run that cannot start is
 * answered 500 by n8n. Sources and measurements: docs/trigger.md.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';

/**
 * Read from the n8n-workflow that n8n loads this node with: `validateNodeCredentials` came with
 * n8n 2.8, the release whose webhooks answer after the run exists. Where it is missing (an older
 * n8n, or a later one without it) the step answers, which is right on every version.
 */
export const N8N_ANSWERS_AFTER_START =
	typeof (n8nWorkflow as Record<string, unknown>).validateNodeCredentials === 'function';

export const RESPONSE_MODE = N8N_ANSWERS_AFTER_START ? 'onReceived' : 'responseNode';

/** n8n's own answer to a webhook that started a run. */
export const STARTED_ANSWER = { message: 'Workflow was started' };

/** The trigger's step, first thing: answers the delivery where n8n leaves that to the run. */
export function answerFromStep(context: IExecuteFunctions): void {
	if (N8N_ANSWERS_AFTER_START) return;
	context.sendResponse({ body: STARTED_ANSWER, headers: {}, statusCode: 200 });
}
