import type { Migration } from '../migrate.ts';
import { initial } from './001-initial.ts';
import { productOrigin } from './002-product-origin.ts';
import { accounts } from './003-accounts.ts';
import { photoStorage } from './004-photo-storage.ts';
import { batchAccount } from './005-batch-account.ts';
import { review } from './006-review.ts';
import { videosAfterReview } from './007-videos-after-review.ts';
import { exportsTable } from './008-exports.ts';
import { exportFiles } from './009-export-files.ts';
import { ledgerBrands } from './010-ledger-brands.ts';
import { agentRequests } from './011-agent-requests.ts';
import { ledgerAgent } from './012-ledger-agent.ts';
import { ledgerMoney } from './013-ledger-money.ts';
import { agentQuote } from './014-agent-quote.ts';
import { resultFocus } from './015-result-focus.ts';
import { productIdentity } from './016-product-identity.ts';
import { agentQuotes } from './017-mcplong-agent-quotes.ts';
import { exportLastChoice } from './018-export31-last-choice.ts';
import { reviewLabels } from './019-review31b-labels.ts';
import { lastPoll } from './020-etapoll31-last-poll.ts';
import { commitMark } from './021-retry-commit-mark.ts';
import { durationBrackets } from './022-duration-brackets.ts';
import { ownContentIndex } from './023-own-content-index.ts';
import { serviceTrouble } from './024-service-trouble.ts';

/** Every schema step, in order. Append only: a released migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  productOrigin,
  accounts,
  photoStorage,
  batchAccount,
  review,
  videosAfterReview,
  exportsTable,
  exportFiles,
  ledgerBrands,
  agentRequests,
  ledgerAgent,
  ledgerMoney,
  agentQuote,
  resultFocus,
  productIdentity,
  agentQuotes,
  exportLastChoice,
  reviewLabels,
  lastPoll,
  commitMark,
  durationBrackets,
  ownContentIndex,
  serviceTrouble,
];
