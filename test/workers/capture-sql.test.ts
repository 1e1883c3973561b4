// The pieces of the capture DDL that carry names: literals, capture names, the name check.

import { describe, expect, it } from 'vitest';
import { captureName, installCapture, literal, parseCaptureName } from '../../runtime/workers/capture.js';

describe('capture DDL pieces', () => {
  it('writes literals with quotes doubled and backslashes in the escape form', () => {
    expect(literal("it's")).toBe("'it''s'");
    expect(literal('a\\b\'c')).toBe("E'a\\\\b''c'");
    expect(() => literal('nul\u0000')).toThrow();
  });

  it('reads back the trigger and operation of a capture name', () => {
    expect(parseCaptureName(captureName('my-trigger_2', 'UPDATE'))).toEqual({ trigger: 'my-trigger_2', op: 'UPDATE' });
    expect(parseCaptureName('notify_svc__INSERT')).toBeNull();
    expect(parseCaptureName('notify_svc_t_TRUNCATE')).toBeNull();
    expect(parseCaptureName('other_t_INSERT')).toBeNull();
  });

  it('refuses to build DDL for a trigger name outside [A-Za-z][A-Za-z0-9_-]*', () => {
    const c = { trigger: 'bad"name', op: 'INSERT' as const, table: { schema: 'public', name: 't' }, spec: { columns: '*' as const }, replication: false };
    expect(() => installCapture(c)).toThrow(/not a valid name/);
    expect(installCapture({ ...c, trigger: 'ok-name' })[2]).toBe(
      'CREATE TRIGGER "notify_svc_ok-name_INSERT" AFTER INSERT ON "public"."t" FOR EACH ROW EXECUTE PROCEDURE "svc_catalog"."notify_svc_ok-name_INSERT"()');
  });
});
