// A fault of the network between Kiln and its database that a proxy cannot aim at one statement:
// the statement runs and commits on the real server, then its answer is lost on the way back, so
// the caller sees the connection error of a dropped socket and cannot tell whether it committed.

import type { Driver } from '../../runtime/drivers/index.js';

export interface LosingDriver {
  readonly driver: Driver;
  /** Statements whose answer was lost so far. */
  lost(): number;
}

/** `driver`, except that the first `times` statements whose text `matches` run for real and then fail as a dropped connection. */
export function loseAnswers(driver: Driver, matches: (text: string) => boolean, times = 1): LosingDriver {
  let lost = 0;
  const query: Driver['query'] = async (text, params, opts) => {
    const result = await driver.query(text, params, opts);
    if (lost < times && matches(text)) {
      lost += 1;
      throw new Error('Connection terminated unexpectedly');
    }
    return result;
  };
  const wrapped = new Proxy(driver, {
    get: (target, key) => (key === 'query' ? query : Reflect.get(target, key, target)),
  });
  return { driver: wrapped, lost: () => lost };
}
