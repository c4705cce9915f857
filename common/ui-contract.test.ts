import { describe, expect, it } from 'vitest';
import { UI_CHANNEL_NAMES, isUiChannel, isUiEventName, parseUiRequest } from './ui-contract.js';

describe('the UI contract', () => {
  it('declares each channel once, with a request schema', () => {
    expect(new Set(UI_CHANNEL_NAMES).size).toBe(UI_CHANNEL_NAMES.length);
    expect(UI_CHANNEL_NAMES).toContain('roles.applyChange');
    expect(isUiChannel('roles.list')).toBe(true);
    expect(isUiChannel('toString')).toBe(false);
    expect(isUiEventName('state.changed')).toBe(true);
    expect(isUiEventName('constructor')).toBe(false);
  });

  it('accepts a well-formed request and keeps its values', () => {
    const parsed = parseUiRequest('roles.planChange', { input: { id: 'ENGINEER01', name: '小豹', aliases: ['豹豹'] } });
    expect(parsed).toEqual({ ok: true, value: { input: { id: 'ENGINEER01', name: '小豹', aliases: ['豹豹'] } } });
  });

  it('refuses path-like IDs, unknown fields and multi-line names with a message naming the field', () => {
    for (const [channel, body, field] of [
      ['roles.get', { id: '../../etc/passwd' }, 'id'],
      ['roles.get', { id: 'engineer01' }, 'id'],
      ['roles.create', { input: { name: 'a\nb' } }, 'input.name'],
      ['roles.create', { input: { name: 'x', shell: 'rm -rf /' } }, 'input'],
      ['roles.applyChange', { input: { id: 'ENGINEER01' }, token: 'not hex!' }, 'token'],
      ['roles.reorder', { order: ['OK01', 'bad id'] }, 'order.1'],
    ] as const) {
      const parsed = parseUiRequest(channel, body);
      expect(parsed.ok, `${channel} ${JSON.stringify(body)}`).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error.code).toBe('BAD_REQUEST');
        expect(parsed.error.message).toContain(`${field}`);
      }
    }
  });
});
