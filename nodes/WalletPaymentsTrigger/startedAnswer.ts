/**
 * A delivery is answered 2xx only from the trigger's step, once the event's first record is
 * written, so a run that n8n does not start, or whose first record fails, is answered with an
 * error and delivered again. Why n8n's own answer cannot be trusted for this: docs/trigger.md.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

export const RESPONSE_MODE = 'responseNode';

/** n8n's own answer to a webhook that started a run. */
export const STARTED_ANSWER = { message: 'Workflow was started' };

/** The trigger's step answers the delivery: its run started and its event's first record is written. */
export function answerFromStep(context: IExecuteFunctions): void {
	context.sendResponse({ body: STARTED_ANSWER, headers: {}, statusCode: 200 });
}
