import type { IncomingHttpHeaders } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mayAnswerPost, passesSessionChecks, sdkReadsUnsized } from './request-checks.js';

const SESSION = 'session-1';
const bounds = { maxBodyBytes: 100, allowedHosts: ['127.0.0.1:8080'] };
// A POST of one request on an open session that the SDK's transport would read and accept.
const post = (extra: IncomingHttpHeaders = {}) => ({
  headers: {
    host: '127.0.0.1:8080',
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'content-length': '100',
    'mcp-session-id': SESSION,
    'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    ...extra,
  },
});

describe('the checks the SDK makes of a request before it reads one', () => {
  it('passes a request of the open session, and none once it is closed or of another session', () => {
    expect(passesSessionChecks(post(), SESSION, bounds)).toBe(true);
    expect(passesSessionChecks(post(), undefined, bounds)).toBe(false);
    expect(passesSessionChecks(post({ 'mcp-session-id': 'other' }), SESSION, bounds)).toBe(false);
  });

  it('refuses a client that accepts no stream, an unsupported protocol version or a Host not allowed', () => {
    expect(passesSessionChecks(post({ accept: 'application/json' }), SESSION, bounds)).toBe(false);
    expect(
      passesSessionChecks(post({ 'mcp-protocol-version': '1999-01-01' }), SESSION, bounds),
    ).toBe(false);
    expect(passesSessionChecks(post({ host: 'evil.example:80' }), SESSION, bounds)).toBe(false);
    // No Host list: any Host; no version header: the SDK assumes its default.
    expect(
      passesSessionChecks(post({ host: 'evil.example:80' }), SESSION, { maxBodyBytes: 100 }),
    ).toBe(true);
    expect(passesSessionChecks(post({ 'mcp-protocol-version': undefined }), SESSION, bounds)).toBe(
      true,
    );
  });

  it('answers a POST here only with a JSON body of a known size within the bound and a version', () => {
    expect(mayAnswerPost(post(), SESSION, bounds)).toBe(true);
    expect(
      mayAnswerPost(post({ 'content-type': 'Application/JSON; charset=utf-8' }), SESSION, bounds),
    ).toBe(true);
    expect(mayAnswerPost(post({ 'content-length': '101' }), SESSION, bounds)).toBe(false);
    expect(mayAnswerPost(post({ 'content-length': undefined }), SESSION, bounds)).toBe(false);
    expect(mayAnswerPost(post({ 'content-type': 'text/plain' }), SESSION, bounds)).toBe(false);
    expect(mayAnswerPost(post({ accept: 'text/event-stream' }), SESSION, bounds)).toBe(false);
    expect(mayAnswerPost(post({ 'mcp-protocol-version': undefined }), SESSION, bounds)).toBe(false);
    expect(mayAnswerPost(post(), undefined, bounds)).toBe(false);
  });

  it('reads an unsized POST the SDK would read for its ids, and no other', () => {
    expect(sdkReadsUnsized(post({ 'content-length': undefined }), SESSION, bounds)).toBe(true);
    expect(sdkReadsUnsized(post(), SESSION, bounds)).toBe(false);
    expect(
      sdkReadsUnsized(
        post({ 'content-length': undefined, 'content-type': 'text/plain' }),
        SESSION,
        bounds,
      ),
    ).toBe(false);
    expect(sdkReadsUnsized(post({ 'content-length': undefined }), undefined, bounds)).toBe(false);
  });
});
