/**
 * Every suite gets n8n's de-duplication store (in memory, test/helpers/n8n/deduplication.ts), and
 * each test starts with nothing recorded, as a fresh n8n would.
 */
import { clearProcessedData, useInMemoryDeduplication } from '../helpers/n8n/deduplication';

useInMemoryDeduplication();
beforeEach(() => clearProcessedData());
