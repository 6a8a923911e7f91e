/**
 * The ledger: what both nodes record in n8n's store so that nothing is done twice. It imports
 * nothing from either node. docs/ledger.md has the design; states.ts every value it writes.
 */
export { ClaimNotHeld, RecordsLost } from './book';
export { CLAIM_ROUNDS } from './claim';
export { readClaimWait, DEFAULT_CLAIM_WAIT_MS, MIN_CLAIM_WAIT_MS, ONE_PROCESS } from './claimWait';
export { eventKey, recordEvents } from './eventRecords';
export { freshMs, passRecordsSettled, triggerTakeoverWaitMs } from './eventClaims';
export { openLedger, type Ledger } from './ledger';
export {
	KEYS_REMEMBERED,
	MAX_QUEUE_RUN_ITEMS,
	MAX_RUN_ITEMS,
	PLACE_RECORDS_PER_ITEM,
	placeValue,
	QUEUE_RECORDS_PER_ITEM,
	RECORDS_PER_ITEM,
	runMark,
	type Verdict,
} from './states';
export { takeoverWaitMs } from './takeover';
export { type LedgerItem, windows } from './windows';
export { type SentDay } from './days';
export { type Forgotten } from './forgotten';
export { peekKeys, type Seen } from './peek';
export {
	anchorPeriods,
	checkPeriods,
	notePaidPeriods,
	type PeriodItem,
	type PeriodRefusal,
} from './periods';
