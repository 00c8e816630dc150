import { z } from 'zod';
import type { AccountView, ModelView } from '../models.ts';
import { channel, id, none, url } from './channel.ts';

// Keys and what they see: the Sandbox, the keys stored sealed, their balances, the service's models
// (core/accounts/).

export const accountId = z.string().min(1).max(100);

export const accountsChannels = {
  'accounts:list': channel<AccountView[]>()(none),
  // A plain http address to another machine is refused unless `insecureHttp` says to send the key anyway;
  // the answer then carries the warning (core/accounts/key-transport.ts).
  'accounts:add': channel<AccountView & { warning?: string }>()(
    z
      .object({
        name: z.string().trim().min(1).max(100),
        baseUrl: url,
        apiKey: z.string().trim().min(1).max(500),
        insecureHttp: z.boolean().optional(),
      })
      .strict(),
  ),
  'accounts:remove': channel<null>()(id),
  'accounts:refresh': channel<AccountView>()(id),
  'models:list': channel<ModelView[]>()(z.object({ accountId }).strict()),
};
