// `verify` and `assertVerified` on the server `startMockServer` resolves: the admin API's
// `POST /__admin/verify`, called in the mock's own process.
import type { Expectation } from '../exchange/admin/verify/expectation.js';
import type { VerifyAnswer } from '../exchange/admin/verify/verify.js';
import type { AdminClient } from './client.js';

export interface VerifyOptions {
  /** The session whose journal is checked; absent, every session's. */
  session?: string;
}

export interface Oracle {
  /** Checks each expectation; a malformed one rejects with the 400's message, naming its path. */
  verify(expect: readonly Expectation[], options?: VerifyOptions): Promise<VerifyAnswer>;
  /** Resolves when every expectation holds, else rejects with an Error listing each failed one's message. */
  assertVerified(expect: readonly Expectation[], options?: VerifyOptions): Promise<void>;
}

export class VerifyError extends Error {
  constructor(readonly answer: VerifyAnswer) {
    const failed = answer.results.filter((result) => !result.ok);
    super(`${failed.length} of ${answer.results.length} expectations failed:\n${failed.map((result) => `- ${result.message}`).join('\n')}`);
    this.name = 'VerifyError';
  }
}

export function oracle(admin: AdminClient): Oracle {
  const verify: Oracle['verify'] = async (expect, options = {}) => {
    const answer = await admin.call('POST', '/verify', { body: { session: options.session, expect } });
    if (answer.status !== 200) {
      const message = (answer.body as { error?: { message?: string } }).error?.message ?? JSON.stringify(answer.body);
      throw new Error(message);
    }
    return answer.body as VerifyAnswer;
  };
  return {
    verify,
    assertVerified: async (expect, options) => {
      const answer = await verify(expect, options);
      if (!answer.ok) throw new VerifyError(answer);
    },
  };
}
