import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attachmentDisposition, UuidParamPipe } from './attachment-download.js';

describe('attachment download', () => {
  it('names the file exactly in filename*, and safely in filename', () => {
    assert.equal(attachmentDisposition('report.pdf'), `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    assert.equal(attachmentDisposition('Résumé (final).pdf'), `attachment; filename="R_sum_ (final).pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29.pdf`);
    assert.equal(attachmentDisposition('a"b\\c\r\nSet-Cookie: x=1.txt'), `attachment; filename="a_b_c__Set-Cookie: x=1.txt"; filename*=UTF-8''a%22b%5Cc%0D%0ASet-Cookie%3A%20x%3D1.txt`);
    assert.equal(attachmentDisposition('日本語.txt'), `attachment; filename="___.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt`);
    assert.equal(attachmentDisposition(null), 'attachment');
    assert.equal(attachmentDisposition(''), 'attachment');
  });

  it('takes only a UUID as an attachment id', () => {
    const pipe = new UuidParamPipe('attachment');
    assert.equal(pipe.transform('0f8fad5b-d9cb-469f-a165-70867728950e'), '0f8fad5b-d9cb-469f-a165-70867728950e');
    for (const bad of ['1', '0F8FAD5B-D9CB-469F-A165-70867728950E', '0f8fad5b-d9cb-469f-a165-70867728950e ', '../x']) assert.throws(() => pipe.transform(bad));
  });
});
