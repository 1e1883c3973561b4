// Everything the engine enforces on a request besides permissions, in one place: the server's
// caps (measured once per prepared operation), Hasura's API limits and introspection option for
// the role, the rate-limit counts, and the time limit as a statement timeout on the driver.

import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { BundleModel, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import type { OperationCost } from './cost.js';
import { apiLimitsFor, checkBatchLimit, checkRoleLimits, limitFor, measureOperation, type QueryCaps } from './limits.js';
import type { Prepared } from './prepare.js';
import type { ClientInfo, RateLimiter } from './rate-limit.js';
import { withStatementTimeout } from './timed-driver.js';

/** The limits of one engine (one model). */
export class RequestLimits {
  // What each prepared operation costs: measured before validation on a cache miss, on first use for stored ones.
  private readonly costs = new WeakMap<Prepared, OperationCost>();

  constructor(private readonly model: BundleModel, private readonly caps: QueryCaps, private readonly rates: RateLimiter) {}

  /** Measures a parsed operation against the server's caps (throws when over one). */
  measure(document: DocumentNode, operation: OperationDefinitionNode): OperationCost {
    return measureOperation(document, operation, this.caps);
  }

  /** Remembers the cost measured for an operation before it was prepared. */
  remember(p: Prepared, cost: OperationCost): void {
    this.costs.set(p, cost);
  }

  /** Checks a prepared operation against the caps and the role's depth, node and introspection limits. */
  check(p: Prepared, session: Session): Prepared {
    let cost = this.costs.get(p);
    if (!cost) {
      cost = this.measure(p.document, p.operation);
      this.costs.set(p, cost);
    }
    checkRoleLimits(this.model, cost, session.role);
    return p;
  }

  /** Counts a request's operations against the rate limit and, for a batch, checks the batch limit. */
  admit(session: Session, client: ClientInfo, operations: number, batched: boolean): void {
    if (batched) checkBatchLimit(this.model, session.role, operations);
    this.rates.take(this.model, session, client, operations);
  }

  /** The driver as the role runs on it: under its time limit when it has one. */
  driver(driver: Driver, role: string): Driver {
    const limits = apiLimitsFor(this.model, role);
    const seconds = limits ? limitFor(limits.time, role) : undefined;
    return seconds === undefined ? driver : withStatementTimeout(driver, seconds);
  }
}
