/**
 * An Idempotency Key built from the clock or from chance (issue #46, point 2) changes when the
 * run is retried on another day or run again, so the rows would be sent again: the run says so
 * above its output, before it sends (the key itself is the user's to change). The Reference too
 * (issue #57): a service that refuses a reference it has seen refuses a repeat only when the
 * reference is the same.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** What in a key's expression changes from one run to the next. */
const CHANGING =
	/\$now|\$today|Date\.now|new Date|Math\.random|randomUUID|\$execution\.id|\$runIndex/;

export function noteChangingKey(context: IExecuteFunctions, itemIndex: number): void {
	const fields = [
		['duplicateProtection.idempotencyKey', 'Idempotency Key'],
		['duplicateProtection.period', 'Period'],
		['duplicateProtection.rowId', 'Row ID'],
		['reference', 'Reference'],
	] as const;
	const changing = fields
		.map(([name, label]) => {
			const raw = context.getNodeParameter(name, itemIndex, '', {
				rawExpressions: true,
			});
			return { label, found: typeof raw === 'string' ? CHANGING.exec(raw) : null };
		})
		.find(({ found }) => found !== null);
	if (!changing) return;
	const { label, found } = changing;
	context.addExecutionHints({
		type: 'warning',
		location: 'outputPane',
		message: `The ${label} uses ${found![0]}, which changes from one run to the next: a Retry on another day, or the same rows run again, makes new keys and sends them again. Build the key from the data instead, e.g. {{ $json.invoiceId }}-{{ $json.period }}.`,
	});
}
