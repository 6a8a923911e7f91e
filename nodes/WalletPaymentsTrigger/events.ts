import type { INodePropertyOptions } from 'n8n-workflow';

/** The "All Events" choice of the Events field. */
export const ALL_EVENTS = '*';

/**
 * Event names the service is known to send (provider notes, "Webhooks"). Names the list
 * lacks can be typed into the Custom Event Names field.
 */
export const WALLET_EVENTS: INodePropertyOptions[] = [
	{
		name: 'Beneficiary Status Changed',
		value: 'beneficiary.status.changed',
		description:
			'A saved beneficiary’s status moved to PENDING, PROCESSING, SUCCESS or FAILED (beneficiary.status.changed)',
	},
	{
		name: 'Card Created',
		value: 'virtualcard.created.success',
		description: 'A virtual card was issued (virtualcard.created.success)',
	},
	{
		name: 'Card Creation Failed',
		value: 'virtualcard.created.failed',
		description: 'A virtual card could not be issued (virtualcard.created.failed)',
	},
	{
		name: 'Card Top-Up Failed',
		value: 'virtualcard.topup.failed',
		description: 'A card top-up failed (virtualcard.topup.failed)',
	},
	{
		name: 'Card Top-Up Succeeded',
		value: 'virtualcard.topup.success',
		description: 'A card top-up settled (virtualcard.topup.success)',
	},
	{
		name: 'Card Transaction Credit',
		value: 'virtualcard.transaction.credit',
		description:
			'Money was added to a card (e.g. a settled top-up) (virtualcard.transaction.credit)',
	},
	{
		name: 'Card Transaction Debit',
		value: 'virtualcard.transaction.debit',
		description:
			'Money left a card (a purchase or a settled withdrawal) (virtualcard.transaction.debit)',
	},
	{
		name: 'Card Transaction Declined',
		value: 'virtualcard.transaction.declined',
		description: 'A card transaction was declined (virtualcard.transaction.declined)',
	},
	{
		name: 'Card Transaction Reversed',
		value: 'virtualcard.transaction.reversed',
		description: 'A card transaction was reversed (virtualcard.transaction.reversed)',
	},
	{
		name: 'Card User KYC Failed',
		value: 'virtualcard.user.kyc.failed',
		description: 'A card user’s identity check failed (virtualcard.user.kyc.failed)',
	},
	{
		name: 'Card User KYC Succeeded',
		value: 'virtualcard.user.kyc.success',
		description: 'A card user’s identity check passed (virtualcard.user.kyc.success)',
	},
	{
		name: 'Card Withdrawal Failed',
		value: 'virtualcard.withdrawal.failed',
		description: 'A withdrawal from a card failed (virtualcard.withdrawal.failed)',
	},
	{
		name: 'Card Withdrawal Succeeded',
		value: 'virtualcard.withdrawal.success',
		description: 'A withdrawal from a card settled (virtualcard.withdrawal.success)',
	},
	{
		name: 'Deposit Succeeded',
		value: 'transaction.deposit.success',
		description: 'A collection was paid into the wallet (transaction.deposit.success)',
	},
	{
		name: 'Payout Failed',
		value: 'payout.transfer.failed',
		description: 'A payout failed and the wallet was refunded (payout.transfer.failed)',
	},
	{
		name: 'Payout Succeeded',
		value: 'payout.transfer.success',
		description: 'A payout reached its beneficiary (payout.transfer.success)',
	},
];

/** The events a trigger listens to, from its Events and Custom Event Names fields. */
export interface EventSelection {
	all: boolean;
	/** Lower-cased event names. */
	names: Set<string>;
}

export function eventSelection(events: unknown, customEvents: unknown): EventSelection {
	const chosen = Array.isArray(events)
		? events.filter((name): name is string => typeof name === 'string')
		: [];
	const custom = typeof customEvents === 'string' ? customEvents.split(',') : [];
	const names = new Set(
		[...chosen, ...custom]
			.map((name) => name.trim().toLowerCase())
			.filter((name) => name.length > 0),
	);
	return { all: names.has(ALL_EVENTS), names };
}

/** Event names match without regard to case or surrounding spaces. */
export function isSelected(selection: EventSelection, event: string): boolean {
	return selection.all || selection.names.has(event.trim().toLowerCase());
}
