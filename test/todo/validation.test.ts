// The date rules and schema messages of the todo server, in-process (the contract suites prove
// them over the wire; this covers the calendar edge cases without a server).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { isIsoDate, isIsoDateTime, parseIsoDateTime, schemaViolations } from '../../servers/todo/validation';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('todo server: argument validation', () => {
  it('accepts every instant written by toISOString() and reads back the same instant', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        const text = date.toISOString();
        assert.ok(isIsoDateTime(text), text);
        assert.equal(parseIsoDateTime(text).getTime(), date.getTime());
      }),
    );
  });

  it('reads a date-time without offset in the local time zone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1970, max: 2100 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (y, mo, d, h, mi) => {
          const text = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:00`;
          assert.ok(isIsoDateTime(text), text);
          // Not compared field by field: a local time skipped by a DST change moves forward.
          assert.equal(parseIsoDateTime(text).getTime(), new Date(y, mo - 1, d, h, mi).getTime());
        },
      ),
    );
  });

  it('refuses impossible or non-ISO date-times', () => {
    for (const text of [
      '2025-02-30T10:00:00Z',
      '2025-02-29T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-12-22T24:00:00',
      '2025-12-22T15:60',
      '2025-12-22T15:00:61',
      '2025-12-22 15:00:00',
      '2025-12-22',
      'tomorrow',
      '',
    ]) {
      assert.equal(isIsoDateTime(text), false, text);
    }
    for (const text of ['2024-02-29T00:00:00Z', '2025-12-22T15:00', '2025-12-22T15:00:00.123456+05:30', '2025-12-22T15:00:00-08:00']) {
      assert.equal(isIsoDateTime(text), true, text);
    }
  });

  it('knows calendar dates for due_date_filter', () => {
    assert.equal(isIsoDate('2025-12-25'), true);
    assert.equal(isIsoDate('2024-02-29'), true);
    assert.equal(isIsoDate('2025-02-29'), false);
    assert.equal(isIsoDate('2025-12-25T00:00'), false);
    assert.equal(isIsoDate('25-12-2025'), false);
  });

  it('names every violated field in one message', () => {
    const message = schemaViolations('create_todo', { title: '', priority: 'urgent', tags: ['ok', 7] });
    assert.ok(message);
    assert.match(message, /title: must NOT have fewer than 1 characters/);
    assert.match(message, /priority: must be one of "low", "medium", "high"/);
    assert.match(message, /tags\.1: must be string/);
    assert.equal(schemaViolations('create_todo', { title: 'fine' }), undefined);
    assert.equal(schemaViolations('list_todos', {}), undefined);
  });
});
