import { runSummary, type SummaryRow } from '../../../../nodes/WalletPayments/output/runSummary';

const usd = (minor: number) => ({ currency: 'USD', minor });

test('counts per outcome, totals sent and paid, and the rows that need a person', () => {
	const rows: SummaryRow[] = [
		{ itemIndex: 0, payeeName: 'Ada', money: usd(1050), json: { id: 'tx_1', settled: true, finalStatus: 'success' } },
		{ itemIndex: 1, payeeName: 'Kofi', money: usd(2000), json: { id: 'tx_2', settled: true, finalStatus: 'failed', failedReason: 'account closed' } },
		{ itemIndex: 2, payeeName: '', body: { destination: { accountName: 'Zanele' } }, money: usd(500), json: { id: 'tx_3', alreadySubmitted: true } },
		{ itemIndex: 3, payeeName: 'Chidi', money: usd(700), error: 'Invalid "Amount"' },
		{ itemIndex: 4, payeeName: 'Amina', money: usd(300), json: { id: 'tx_5', settled: false, waitError: 'timed out' } },
		{ itemIndex: 5, payeeName: 'Tunde', money: usd(100), json: { id: 'tx_6', status: 'PENDING' } },
	];
	const summary = runSummary(rows);
	expect(summary.byOutcome).toEqual({ success: 1, failed: 1, 'already submitted': 1, 'not sent': 1, 'not final in time': 1, PENDING: 1 });
	expect(summary.sent).toEqual({ USD: { minor: 3450, major: '34.50 USD' } });
	expect(summary.paid).toEqual({ USD: { minor: 1050, major: '10.50 USD' } });
	expect(summary.attention).toEqual([
		{ itemIndex: 1, payee: 'Kofi', amount: '20.00 USD', outcome: 'failed', reason: 'account closed', transactionId: 'tx_2' },
		{ itemIndex: 3, payee: 'Chidi', amount: '7.00 USD', outcome: 'not sent', reason: 'Invalid "Amount"' },
		{ itemIndex: 4, payee: 'Amina', amount: '3.00 USD', outcome: 'not final in time', reason: 'timed out', transactionId: 'tx_5' },
		{ itemIndex: 5, payee: 'Tunde', amount: '1.00 USD', outcome: 'PENDING', transactionId: 'tx_6' },
	]);
	expect(String(summary.text).split('\n')[1]).toBe('Sent: 34.50 USD. Paid (final status success): 10.50 USD.');
});

test('a run with nothing sent says so', () => {
	const summary = runSummary([{ itemIndex: 0, payeeName: 'Ada', money: usd(100), json: { alreadySubmitted: true } }]);
	expect(summary.attention).toEqual([]);
	expect(String(summary.text)).toBe('Payout run: 1 rows. already submitted: 1.\nSent: nothing. Paid (final status success): nothing.');
});
