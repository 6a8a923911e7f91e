/**
 * The demo's rule-based chat model (tooling/demo/demoModel.ts): asked to pay a beneficiary, it
 * reads the beneficiaries first and proposes the payout with the payee's name and account ending
 * as the list shows them, so the review shows a name and the node's Payee Check holds it.
 */
import { demoAnswer } from '../../../tooling/demo/demoModel';
import type { ChatMessage, ChatRequest } from '../../../tooling/demo/scriptedModel';

const request = (messages: ChatMessage[]): ChatRequest => ({ model: 'demo', messages });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const called = (name: string): ChatMessage => ({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: '{}' } }] });
const result = (content: string): ChatMessage => ({ role: 'tool', content, tool_call_id: 'c1' });

const LIST = JSON.stringify([
	{ id: 'b-1', destination: { accountName: 'Wanjiru Kamau', accountNumber: '254712345101' } },
	{ id: 'b-2', destination: { accountName: 'Otieno Ouma', accountNumber: '254722345102' } },
]);

test('"pay <id> 50 USD": first the beneficiaries, then Pay_out to that one by name and account ending, the amount as written (the example’s Pay out takes major units)', () => {
	expect(demoAnswer(request([user('pay b-2 50 USD')]))).toEqual({ toolCalls: [{ name: 'List_beneficiaries', args: {} }] });
	expect(demoAnswer(request([user('pay b-2 50 USD'), called('List_beneficiaries'), result(LIST)]))).toEqual({
		toolCalls: [
			{
				name: 'Pay_out',
				args: {
					toolParameters: { beneficiaryId: 'b-2', payeeName: 'Otieno Ouma', accountEnding: '5102', amount: 50, currency: 'USD', customerEmail: 'demo@example.com', description: 'Demo payout from the chat' },
					hitlParameters: {},
				},
			},
		],
	});
});

test('a beneficiary not in the list: no payout proposed; after the payout, its result is the answer', () => {
	expect(demoAnswer(request([user('pay b-9 50 USD'), called('List_beneficiaries'), result(LIST)]))).toEqual({ text: 'I cannot find the beneficiary b-9 in the list.' });
	const paid = '{"id":"tx-1","status":"initiated"}';
	expect(demoAnswer(request([user('pay b-2 50 USD'), called('List_beneficiaries'), result(LIST), called('Pay_out'), result(paid)]))).toEqual({ text: paid });
});
