import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { columnList, csvField, csvRecord } from './case-csv.js';

describe('case CSV', () => {
  it('defuses text a spreadsheet would run as a formula', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) assert.equal(csvField(text).replace(/^"|"$/g, '')[0], "'", text);
    assert.equal(csvField('a=1'), 'a=1');
  });

  it('quotes separators, quotes and line breaks as RFC 4180 says', () => {
    assert.equal(csvRecord(['a,b', 'say "hi"', 'one\ntwo', 'plain']), '"a,b","say ""hi""","one\ntwo",plain\r\n');
    assert.equal(csvField('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  });

  it('takes known columns, each once', () => {
    assert.deepEqual(columnList('id,status'), ['id', 'status']);
    assert.equal(columnList('id,id'), undefined);
    assert.equal(columnList('id,password'), undefined);
    assert.equal(columnList(''), undefined);
  });
});
